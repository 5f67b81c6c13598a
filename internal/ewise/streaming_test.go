package ewise

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// TestStreamingSameBits checks that every operation's Streaming kernel of
// every dtype gives the bytes its Kernel gives, on runs of random bit
// patterns (NaNs, infinities and -0 among the floats) of the lengths and
// alignments the streaming kernels split at, with contiguous, broadcast
// and strided operands, and writes nothing outside the output.
func TestStreamingSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const guard = 64
	for _, op := range []*Binary{Mul, Add, Sub} {
		for _, dt := range dtype.All {
			if op.Kernel(dt) == nil {
				continue // no such operation (bool Sub)
			}
			size := dt.Size()
			for _, n := range []int{1, 7, 16, 33, 64, 100, 257, 1000, 4099} {
				for _, st := range [][3]int{{1, 1, 1}, {1, 1, 0}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}} {
					for _, off := range []int{0, 1, 3} {
						in := func(s int) []byte {
							b := make([]byte, (n*s+1)*size+64)
							for i := range b {
								b[i] = byte(r.Uint32())
							}
							if dt == dtype.Bool {
								for i := range b {
									b[i] &= 1
								}
							}
							return b
						}
						a, b := in(st[1]), in(st[2])
						outs := [2][]byte{}
						for k, kernel := range []iter.Kernel{op.Kernel(dt), op.Streaming(dt)} {
							o := make([]byte, guard+(off+n*st[0])*size+guard)
							for i := range o {
								o[i] = 0xa5
							}
							ptrs := [iter.MaxOperands]unsafe.Pointer{unsafe.Pointer(&o[guard+off*size]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0])}
							strides := [iter.MaxOperands]int{st[0] * size, st[1] * size, st[2] * size}
							iter.Call(kernel, n, 3, ptrs, strides)
							vec.FenceStreaming()
							outs[k] = o
						}
						name := fmt.Sprintf("%s %v n=%d strides %v off %d", op.Name, dt, n, st, off)
						if !bytes.Equal(outs[0], outs[1]) {
							t.Fatalf("%s: Streaming differs from Kernel", name)
						}
						for i := range guard {
							if outs[1][i] != 0xa5 || outs[1][len(outs[1])-1-i] != 0xa5 {
								t.Fatalf("%s: a write outside the output", name)
							}
						}
					}
				}
			}
		}
	}
}
