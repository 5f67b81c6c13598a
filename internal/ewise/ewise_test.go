package ewise

import (
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/iter"
)

func TestFillOne(t *testing.T) {
	for _, dt := range dtype.All {
		buf := make([]byte, 5*dt.Size()+2)
		for i := range buf {
			buf[i] = 0xAA
		}
		FillOne(dt, unsafe.Pointer(&buf[1]), 5)
		for i := range 5 {
			var f complex128
			cast.Run(unsafe.Pointer(&f), dtype.Complex128, 0, unsafe.Pointer(&buf[1+i*dt.Size()]), dt, 0, 1)
			if f != 1 {
				t.Errorf("%v element %d is %v, want 1", dt, i, f)
			}
		}
		if buf[0] != 0xAA || buf[len(buf)-1] != 0xAA {
			t.Errorf("%v: FillOne wrote outside its elements", dt)
		}
	}
}

func TestKernelsOfInvalidDType(t *testing.T) {
	if Mul(dtype.Invalid) != nil || Prod(dtype.Invalid) != nil {
		t.Error("kernels for the invalid dtype")
	}
	for _, dt := range dtype.All {
		if Mul(dt) == nil || Prod(dt) == nil {
			t.Errorf("no kernel for %v", dt)
		}
	}
}

func TestChunksCoverEveryElementOnce(t *testing.T) {
	// Plans of one long run, of many short runs, and of runs of exactly
	// the chunk size; each element's offset must be visited exactly once.
	for _, shp := range [][]int{{1000}, {37, 11}, {4, 8}, {3, 16}, {5, 40}} {
		strides := []int{0, 0}
		if len(shp) == 2 {
			strides = []int{shp[1], 1}
		} else {
			strides = []int{1}
		}
		p := iter.NewPlan(shp, strides)
		for _, size := range []int{1, 7, 16, 64, 5000} {
			total := 1
			for _, d := range shp {
				total *= d
			}
			seen := map[uintptr]int{}
			base := make([]byte, total) // one byte per element: offsets are indices
			bases := []unsafe.Pointer{unsafe.Pointer(&base[0])}
			var args Args
			for c := range Chunks(p, size) {
				WalkChunk(p, bases, c, size, func(ptrs []unsafe.Pointer, st []int, n int) {
					if n > size && p.Inner() >= size {
						t.Errorf("chunk of %d elements, more than %d", n, size)
					}
					for i := range n {
						seen[uintptr(ptrs[0])-uintptr(bases[0])+uintptr(i*st[0])]++
					}
				}, &args)
			}
			if len(seen) != total {
				t.Errorf("shape %v, chunk %d: %d offsets visited, want %d", shp, size, len(seen), total)
			}
			for off, k := range seen {
				if k != 1 {
					t.Errorf("shape %v, chunk %d: offset %d visited %d times", shp, size, off, k)
				}
			}
		}
	}
}

func TestTiledWalk(t *testing.T) {
	// Small tiles (7 runs of 10) over a 3×70×45 product whose second
	// operand is transposed in its two inner dimensions and reversed in
	// the last: partial tiles in both directions, every operand checked.
	defer func(b, c int) { tileBytes, tileCols = b, c }(tileBytes, tileCols)
	tileBytes, tileCols = 7*4, 10
	const d0, d1, d2 = 3, 70, 45
	n := d0 * d1 * d2
	a, b := make([]int32, n), make([]int32, n)
	for i := range n {
		a[i], b[i] = int32(i*7+1), int32(i%13-6)
	}
	// bv[i][j][k] = b[i][d2-1-k][j]: b holds d0×d2×d1.
	bv := func(i, j, k int) int32 { return b[i*d2*d1+(d2-1-k)*d1+j] }
	outStrides := []int{d1 * d2 * 4, d2 * 4, 4}
	aStrides := outStrides
	bStrides := []int{d2 * d1 * 4, 4, -d1 * 4}
	p := iter.NewPlan([]int{d0, d1, d2}, outStrides, aStrides, bStrides)
	if _, ok := newTiling(p, []int{4, 4, 4}); !ok {
		t.Fatal("the plan is not tiled")
	}
	for _, w := range []int{1, 2} {
		out := make([]int32, n+2)
		out[0], out[n+1] = 99, 99 // guards
		bases := []unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[(d2-1)*d1])}
		Execute(p, bases, []int{4, 4, 4}, w, func() iter.Kernel { return Mul(dtype.Int32) })
		for i := range d0 {
			for j := range d1 {
				for k := range d2 {
					x := i*d1*d2 + j*d2 + k
					if want := a[x] * bv(i, j, k); out[1+x] != want {
						t.Fatalf("w=%d: out[%d][%d][%d] = %d, want %d", w, i, j, k, out[1+x], want)
					}
				}
			}
		}
		if out[0] != 99 || out[n+1] != 99 {
			t.Fatalf("w=%d: a write outside the output", w)
		}
	}
}
