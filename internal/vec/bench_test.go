package vec

import (
	"github.com/tensor-go/tensor/internal/kernels"
	"testing"
	"unsafe"
)

// Benchmarks run every kernel set (the accelerated ones and the Go twin) at
// 4K elements, which stay in cache, and 16M, which stream from memory.
// Bytes count every array touched once, as the peer benchmarks do: three
// for a multiply, one for a reduction.

var benchSizes = []struct {
	name string
	n    int
}{{"4K", 4 << 10}, {"16M", 16 << 20}}

// accelerated returns the entries of a table other than the Go twins.
func accelerated[K any](t *kernels.Table[K]) []kernels.Variant[K] {
	v := t.Variants()
	return v[:len(v)-1]
}

// filled returns n copies of v. Writing every element matters: untouched
// memory would make the first run pay for page faults and reads of it hit
// the kernel's shared zero page.
func filled[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// benchMul times call(k, dst, a, b) for every set and size, a and b filled
// with av and bv; bytes is the traffic per element.
func benchMul[D, A, B any](b *testing.B, bytes int, av A, bv B, call func(k binaryKernels, dst []D, a []A, bb []B)) {
	for _, size := range benchSizes {
		var zero D
		dst, a, bb := filled(size.n, zero), filled(size.n, av), filled(size.n, bv)
		for _, v := range mulTable.Variants() {
			b.Run(size.name+"/"+v.Name(), func(b *testing.B) {
				b.SetBytes(int64(bytes * size.n))
				for b.Loop() {
					call(v.K, dst, a, bb)
				}
			})
		}
	}
}

func sizeOf[T any]() int { var z T; return int(unsafe.Sizeof(z)) }

func benchBinary[T any](b *testing.B, v T, pick func(binaryKernels) binary[T]) {
	benchMul(b, 3*sizeOf[T](), v, v, func(k binaryKernels, dst, a, bb []T) { pick(k)(dst, a, bb) })
}

func BenchmarkMulF32(b *testing.B) {
	benchBinary(b, float32(1), func(k binaryKernels) binary[float32] { return k.f32 })
}
func BenchmarkMulF64(b *testing.B) {
	benchBinary(b, float64(1), func(k binaryKernels) binary[float64] { return k.f64 })
}
func BenchmarkMulI8(b *testing.B) {
	benchBinary(b, int8(1), func(k binaryKernels) binary[int8] { return k.i8 })
}
func BenchmarkMulI16(b *testing.B) {
	benchBinary(b, int16(1), func(k binaryKernels) binary[int16] { return k.i16 })
}
func BenchmarkMulI32(b *testing.B) {
	benchBinary(b, int32(1), func(k binaryKernels) binary[int32] { return k.i32 })
}
func BenchmarkMulI64(b *testing.B) {
	benchBinary(b, int64(1), func(k binaryKernels) binary[int64] { return k.i64 })
}
func BenchmarkMulF16(b *testing.B) {
	benchBinary(b, uint16(0x3c00), func(k binaryKernels) binary[uint16] { return k.f16 })
}
func BenchmarkMulBF16(b *testing.B) {
	benchBinary(b, uint16(0x3f80), func(k binaryKernels) binary[uint16] { return k.bf16 })
}

func BenchmarkMulF32I32(b *testing.B) {
	benchMul(b, 12, float32(1), int32(1), func(k binaryKernels, dst, a []float32, bb []int32) { k.f32i32(dst, a, bb) })
}

// The scalar kernels touch two arrays.
func BenchmarkMulScalarF32(b *testing.B) {
	benchMul(b, 8, float32(1), float32(1), func(k binaryKernels, dst, a, _ []float32) { k.scalarF32(dst, a, 3) })
}

func BenchmarkMulScalarBF16(b *testing.B) {
	benchMul(b, 4, uint16(0x3f80), uint16(0x3f80), func(k binaryKernels, dst, a, _ []uint16) { k.scalarBF16(dst, a, 3) })
}

// benchProd times a reduction for every set and size.
func benchProd[E, R any](b *testing.B, v E, run func(a []E) R) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	for _, size := range benchSizes {
		a := filled(size.n, v)
		for _, v := range prodTable.Variants() {
			b.Run(size.name+"/"+v.Name(), func(b *testing.B) {
				prodImpl = v.K
				b.SetBytes(int64(sizeOf[E]() * size.n))
				for b.Loop() {
					run(a)
				}
			})
		}
	}
}

func BenchmarkProdF32(b *testing.B)  { benchProd(b, float32(1), ProdF32) }
func BenchmarkProdF64(b *testing.B)  { benchProd(b, float64(1), ProdF64) }
func BenchmarkProdI32(b *testing.B)  { benchProd(b, int32(1), ProdI32) }
func BenchmarkProdI64(b *testing.B)  { benchProd(b, int64(1), ProdI64) }
func BenchmarkProdI8(b *testing.B)   { benchProd(b, int8(1), ProdI8) }
func BenchmarkProdU16(b *testing.B)  { benchProd(b, uint16(1), ProdU16) }
func BenchmarkProdF16(b *testing.B)  { benchProd(b, uint16(0x3c00), ProdF16) }
func BenchmarkProdBF16(b *testing.B) { benchProd(b, uint16(0x3f80), ProdBF16) }

// BenchmarkProdF32Pair times the pair kernel on the two halves of each
// size against ProdF32 of the halves one after the other, per set: the
// pairs exist for the float32 runs from memory (16M), where one run at a
// time keeps too few widening loads in flight.
func BenchmarkProdF32Pair(b *testing.B) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	for _, size := range benchSizes {
		a := filled(size.n, float32(1))
		x, y := a[:size.n/2], a[size.n/2:]
		for _, v := range prodTable.Variants() {
			b.Run(size.name+"/"+v.Name()+"/pair", func(b *testing.B) {
				prodImpl = v.K
				b.SetBytes(int64(4 * size.n))
				for b.Loop() {
					ProdF32Pair(x, y)
				}
			})
			b.Run(size.name+"/"+v.Name()+"/single", func(b *testing.B) {
				prodImpl = v.K
				b.SetBytes(int64(4 * size.n))
				for b.Loop() {
					ProdF32(x)
					ProdF32(y)
				}
			})
		}
	}
}

// BenchmarkProdF64Run256 times the reduction of one short run, as in a
// reduction over the inner axis of a 256×256×256 tensor, where the fold of
// the lanes is a sizeable share of the work.
func BenchmarkProdF64Run256(b *testing.B) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	a := filled(256, 1.0)
	for _, v := range prodTable.Variants() {
		b.Run(v.Name(), func(b *testing.B) {
			prodImpl = v.K
			b.SetBytes(8 * 256)
			for b.Loop() {
				ProdF64(a)
			}
		})
	}
}
