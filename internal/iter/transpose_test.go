package iter

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/vec"
)

// TestTransposeKernels checks every set's transposing kernels, through
// gatherColumns (whole blocks in the kernel, edges element by element),
// against the element-by-element gather: every size from 1 to 3 blocks in
// both dimensions, columns ascending and descending in memory and with
// gaps between them, a pitch wider than the block, and guard bytes around
// the buffer, which must stay untouched.
func TestTransposeKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, v := range transposeTable.Variants() {
		for _, size := range []int{1, 2, 4, 8} {
			restore := transposeTable.Use(v.Set)
			k, rb, cb := transposeKernelOf(size)
			restore()
			if k == nil {
				continue // this set gathers element by element
			}
			t.Run(fmt.Sprintf("%s/%d", v.Name(), size), func(t *testing.T) {
				defer transposeTable.Use(v.Set)()
				for rows := 1; rows <= 3*rb; rows++ {
					for cols := 1; cols <= 3*cb; cols++ {
						checkTranspose(t, r, size, rows, cols)
					}
				}
			})
		}
	}
}

func checkTranspose(t *testing.T, r *rand.Rand, size, rows, cols int) {
	const guard = 64
	pitch := cols + r.IntN(5)
	gap := size * r.IntN(3)
	cs := rows*size + gap
	src := make([]byte, cols*cs+2*guard)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	// Half the cases read the columns from the last one back (a reversed
	// view): a negative column stride.
	first := unsafe.Pointer(&src[guard])
	if r.IntN(2) == 0 {
		first, cs = unsafe.Pointer(&src[guard+(cols-1)*cs]), -cs
	}
	got := make([]byte, rows*pitch*size+2*guard)
	want := make([]byte, len(got))
	for i := range got {
		got[i], want[i] = 0xEE, 0xEE
	}
	if !gatherColumns(unsafe.Pointer(&got[guard]), first, cs, rows, cols, pitch, size) {
		t.Fatal("no kernel")
	}
	gatherElems(unsafe.Pointer(&want[guard]), first, size, cs, rows, cols, pitch, size)
	if !bytes.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				e := (i - guard) / size
				t.Fatalf("size %d, %d×%d, pitch %d, cs %d: byte %d (element %d, %d) is %#x, want %#x",
					size, rows, cols, pitch, cs, i, e/pitch, e%pitch, got[i], want[i])
			}
		}
	}
}

// BenchmarkTiledWalk times a 1000×1000 multiply through Execute with its
// second input contiguous and transposed, float32 and float64, on one
// goroutine: the tiled walk's cost is the ratio of the two.
func BenchmarkTiledWalk(b *testing.B) {
	const n = 1000
	for _, size := range []int{4, 8} {
		out, x, y := make([]byte, n*n*size), make([]byte, n*n*size), make([]byte, n*n*size)
		for i := range out {
			out[i], x[i], y[i] = 1, 0x3f, 0x40 // written: untouched pages read as one shared zero page
		}
		bases := []unsafe.Pointer{unsafe.Pointer(&out[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])}
		sizes := []int{size, size, size}
		rows := []int{n * size, size}
		for _, c := range []struct {
			name string
			y    []int
		}{{"contiguous", rows}, {"transposed", []int{size, n * size}}} {
			p := NewPlan([]int{n, n}, rows, rows, c.y)
			b.Run(fmt.Sprintf("%s/%d", c.name, size*8), func(b *testing.B) {
				b.SetBytes(int64(3 * n * n * size))
				for b.Loop() {
					p.Execute(bases, sizes, 1, func() Kernel { return mulKernel(size) })
				}
			})
		}
	}
}

// mulKernel multiplies runs of float32 (size 4) or float64 with vec's
// kernels where they are contiguous.
func mulKernel(size int) Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		if strides[0] != size || strides[1] != size || strides[2] != size {
			panic("a run that is not contiguous")
		}
		if size == 4 {
			vec.MulF32(unsafe.Slice((*float32)(ptrs[0]), n), unsafe.Slice((*float32)(ptrs[1]), n), unsafe.Slice((*float32)(ptrs[2]), n))
			return
		}
		vec.MulF64(unsafe.Slice((*float64)(ptrs[0]), n), unsafe.Slice((*float64)(ptrs[1]), n), unsafe.Slice((*float64)(ptrs[2]), n))
	}
}

// BenchmarkReusedWalk times a batch of 8 float64 rows of 384·384 elements
// times one such row (a matrix batch times one matrix) through Execute on
// one goroutine, against the same multiply with a second batch: the
// reusing walk reads the broadcast row from memory once.
func BenchmarkReusedWalk(b *testing.B) {
	const batch, n = 8, 384 * 384
	out, x, y := make([]float64, batch*n), make([]float64, batch*n), make([]float64, batch*n)
	for i := range out {
		out[i], x[i], y[i] = 1, 2, 3
	}
	bases := []unsafe.Pointer{unsafe.Pointer(&out[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])}
	rows := []int{8 * n, 8}
	for _, c := range []struct {
		name string
		y    []int
	}{{"batch", rows}, {"broadcast", []int{0, 8}}} {
		p := NewPlan([]int{batch, n}, rows, rows, c.y)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(3 * 8 * batch * n)
			for b.Loop() {
				p.Execute(bases, []int{8, 8, 8}, 1, func() Kernel { return mulKernel(8) })
			}
		})
	}
}
