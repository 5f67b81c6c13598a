package vec

import (
	"syscall"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
	"unsafe"
)

// fencedBytes returns n bytes that end exactly where an inaccessible page
// begins, so a kernel reading or writing one byte too many faults.
func fencedBytes(t *testing.T, n int) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	return mem[page-n : page]
}

func fenced[T any](t *testing.T, n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	b := fencedBytes(t, n*size)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// TestKernelsStayInBounds runs every kernel on runs that end at an
// unmapped page, under every implementation: masked tails must not touch
// the lanes they mask off.
func TestKernelsStayInBounds(t *testing.T) {
	defer func(m, a binaryKernels, p prodKernels, s sumKernels) {
		mulImpl, addImpl, prodImpl, sumImpl = m, a, p, s
	}(mulImpl, addImpl, prodImpl, sumImpl)
	for _, s := range kernels.Runnable() {
		mulImpl, addImpl = mulTable.For(s), addTable.For(s)
		prodImpl, sumImpl = prodTable.For(s), sumTable.For(s)
		for n := range 130 {
			f32, i32 := fenced[float32](t, n), fenced[int32](t, n)
			MulF32(f32, f32, f32)
			MulScalarF32(f32, f32, 2)
			MulF32I32(f32, f32, i32)
			MulI32(i32, i32, i32)
			f64, i64 := fenced[float64](t, n), fenced[int64](t, n)
			MulF64(f64, f64, f64)
			MulI64(i64, i64, i64)
			MulScalarI64(i64, i64, 3)
			i8, i16 := fenced[int8](t, n), fenced[int16](t, n)
			MulI8(i8, i8, i8)
			MulScalarI8(i8, i8, 3)
			MulI16(i16, i16, i16)
			h := fenced[uint16](t, n)
			MulF16(h, h, h)
			MulBF16(h, h, h)
			MulScalarF16(h, h, 2)
			MulScalarBF16(h, h, 2)
			AddF32(f32, f32, f32)
			AddScalarF32(f32, f32, 2)
			AddF32I32(f32, f32, i32)
			AddI32(i32, i32, i32)
			AddF64(f64, f64, f64)
			AddI64(i64, i64, i64)
			AddScalarI64(i64, i64, 3)
			AddI8(i8, i8, i8)
			AddScalarI8(i8, i8, 3)
			AddI16(i16, i16, i16)
			AddF16(h, h, h)
			AddBF16(h, h, h)
			AddScalarF16(h, h, 2)
			AddScalarBF16(h, h, 2)
			MulF64F32(f64, f64, f32)
			AddF64F32(f64, f64, f32)
			SumF32(f32)
			SumF64(f64)
			SumI8(i8)
			SumI64(i64)
			SumF16(h)
			SumBF16(h)
			ProdF32(f32)
			ProdF64(f64)
			ProdI8(i8)
			ProdF16(h)
			ProdBF16(h)
		}
	}
}
