package gemm

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCopyRows128 checks the dispatched copyRows128 (the assembly version
// where the CPU has it) and its Go twin against a byte loop, for row counts
// around the loop's edges and positive and negative strides, with guard
// bytes around the destination.
func TestCopyRows128(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	const guard = 64
	impls := map[string]func(dst, src unsafe.Pointer, rows, stride int){"dispatched": copyRows128, "go": copyRows128Go}
	for _, rows := range []int{1, 2, 3, 7, 16, 33} {
		for _, stride := range []int{128, 136, 200, 1024, -128, -520} {
			span := (rows-1)*abs(stride) + 128
			src := make([]byte, span+2*guard)
			for i := range src {
				src[i] = byte(rng.Uint32())
			}
			start := guard
			if stride < 0 {
				start = guard + (rows-1)*(-stride)
			}
			want := make([]byte, rows*128)
			for r := range rows {
				copy(want[r*128:(r+1)*128], src[start+r*stride:])
			}
			for name, f := range impls {
				dst := make([]byte, rows*128+2*guard)
				for i := range dst {
					dst[i] = 0xA5
				}
				f(unsafe.Pointer(&dst[guard]), unsafe.Pointer(&src[start]), rows, stride)
				if !bytes.Equal(dst[guard:guard+rows*128], want) {
					t.Errorf("%s: rows %d stride %d: copied rows differ", name, rows, stride)
				}
				for i, b := range append(dst[:guard:guard], dst[guard+rows*128:]...) {
					if b != 0xA5 {
						t.Fatalf("%s: rows %d stride %d: guard byte %d overwritten", name, rows, stride, i)
					}
				}
			}
		}
	}
}
