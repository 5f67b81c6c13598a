package vec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCopyStreaming checks CopyStreaming with every kernel set the CPU can
// run and the Go twin: every length up to past four lines and some longer,
// at every start within a line, with guard bytes on both sides of dst.
func TestCopyStreaming(t *testing.T) {
	defer func(saved copyStreamKernels) { copyStreamImpl = saved }(copyStreamImpl)
	r := rand.New(rand.NewPCG(7, 11))
	lengths := []int{4096, 4096 + 63, 20000}
	for n := 0; n <= 5*64+1; n++ {
		lengths = append(lengths, n)
	}
	for _, v := range copyStreamTable.Variants() {
		copyStreamImpl = v.K
		for _, n := range lengths {
			for off := range 64 {
				if n > 320 && off%13 != 0 {
					continue
				}
				src := make([]byte, n+5)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				buf := make([]byte, 64+off+n+64+64)
				for i := range buf {
					buf[i] = 0xA5
				}
				start := 64 + int(-uintptr(unsafe.Pointer(&buf[0]))&63) + off
				CopyStreaming(buf[start:start+n], src)
				FenceStreaming()
				name := fmt.Sprintf("%s n=%d off=%d", v.Name(), n, off)
				if !bytes.Equal(buf[start:start+n], src[:n]) {
					t.Fatalf("%s: dst differs from src", name)
				}
				for i, g := range buf {
					if (i < start || i >= start+n) && g != 0xA5 {
						t.Fatalf("%s: guard byte %d written", name, i-start)
					}
				}
			}
		}
	}
}
