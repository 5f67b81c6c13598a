package sparse

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/storage"
)

// TestUninitialized checks that slices below and above the pooled size have
// the asked length, are aligned for their element type and hold what is
// written to them, also after a garbage collection has had the chance to
// reclaim a wrongly untracked array.
func TestUninitialized(t *testing.T) {
	testUninitialized[int8](t)
	testUninitialized[int64](t)
	testUninitialized[float32](t)
}

func testUninitialized[E int8 | int64 | float32 | float64](t *testing.T) {
	var e E
	size := int(unsafe.Sizeof(e))
	for _, n := range []int{0, 1, storage.MinPooled/size - 1, storage.MinPooled / size, 3*storage.MinPooled/size + 5, 1 << 20} {
		s := uninitialized[E](n)
		if len(s) != n {
			t.Fatalf("%T n=%d: len %d", e, n, len(s))
		}
		if n > 0 && uintptr(unsafe.Pointer(&s[0]))%unsafe.Alignof(e) != 0 {
			t.Fatalf("%T n=%d: misaligned", e, n)
		}
		for x := range s {
			s[x] = E(x % 100)
		}
		runtime.GC()
		for x := range s {
			if s[x] != E(x%100) {
				t.Fatalf("%T n=%d: element %d = %v", e, n, x, s[x])
			}
		}
	}
}
