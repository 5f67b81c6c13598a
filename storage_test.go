package tensor

import (
	"runtime"
	"testing"

	"github.com/tensor-go/tensor/internal/storage"
)

// TestRecycledStorageKeepsViews drops results while views of them live on
// and allocates many more of the same size: a view's elements must never
// change, whichever buffers the pool hands out meanwhile.
func TestRecycledStorageKeepsViews(t *testing.T) {
	old := storage.MinPooled
	storage.MinPooled = 4 << 10
	defer func() { storage.MinPooled = old }()
	const n = 64 // 64×64 float32: 16 KiB, pooled here
	a := Must(Rand(1, Float32, 1, 2, n, n))
	b := Must(Rand(2, Float32, 1, 2, n, n))
	want := Must(Matmul(a, b))
	var views []*Tensor
	var copies [][]float32
	for i := range 20 {
		r := Must(Mul(want, float32(i+1)))
		v := Must(r.Slice(Span(i, i+3))).Transpose() // r itself is dropped
		views = append(views, v)
		copies = append(copies, Must(v.Contiguous()).toFloat32s())
		for range 10 {
			Must(Matmul(a, b)) // garbage of the same size class
		}
		runtime.GC()
	}
	for i, v := range views {
		got := Must(v.Contiguous()).toFloat32s()
		for j := range got {
			if got[j] != copies[i][j] {
				t.Fatalf("view %d changed at %d: %v, was %v", i, j, got[j], copies[i][j])
			}
		}
	}
}

func (t *Tensor) toFloat32s() []float32 {
	s, err := ToSlice[float32](t)
	if err != nil {
		panic(err)
	}
	return s
}
