package storage

import (
	"fmt"
	"testing"
	"unsafe"
)

var sink unsafe.Pointer

// BenchmarkGet times taking a buffer, writing each of its cache lines and
// dropping it, as an operation's result is, with the pool on and off.
func BenchmarkGet(b *testing.B) {
	for _, size := range []int{16 << 10, 256 << 10, 4 << 20, 64 << 20} {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dKiB/pool=%v", size>>10, on), func(b *testing.B) {
				old := Enabled
				Enabled = on
				defer func() { Enabled = old }()
				b.SetBytes(int64(size))
				for b.Loop() {
					p := Get(size, false)
					s := unsafe.Slice((*byte)(p), size)
					for i := 0; i < size; i += 64 {
						s[i] = 1
					}
					sink = p
				}
				sink = nil
			})
		}
	}
}
