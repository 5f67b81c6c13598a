package gemm

import "unsafe"

// The pure-Go kernels: 4×8 tiles, computed as four 2×4 blocks whose eight
// accumulators stay in registers (amd64 has 15 for floats; a 4×4 block
// spilled and ran at 5.4 GFLOP per CPU-second against 9.4 for 2×4 on a
// Sapphire Rapids core, float32 and float64 alike). Their blocking follows
// the same cache reasoning as the assembly kernels': the 4×256 A sliver and
// 256×8 B sliver share L1, the 256×512 B panel half of L2.
var (
	goKernelF32 = newKernel("go-f32-4x8", 4, 8, 256, 128, 512, microGo[float32](4, 8))
	goKernelF64 = newKernel("go-f64-4x8", 4, 8, 256, 128, 512, microGo[float64](4, 8))
	goKernelI32 = newKernel("go-i32-4x8", 4, 8, 256, 128, 512, microGo[int32](4, 8))
	goKernelI64 = newKernel("go-i64-4x8", 4, 8, 256, 128, 512, microGo[int64](4, 8))
)

// microGo returns the Go twin of an mr×nr micro-kernel (mr even, nr a
// multiple of 4); it computes exactly the loop in the microKernel doc
// comment, in the same order as the assembly. Each product is rounded
// before it is added (T(a*b)), so that no compiler fuses them (arm64 and
// GOAMD64=v3 would): the Go kernels give the same bits on every
// architecture, and differ from the float assembly, which fuses, only by
// that rounding.
func microGo[T Elem](mr, nr int) microKernel[T] {
	if mr%2 != 0 || nr%4 != 0 {
		panic("gemm: the Go micro-kernel needs an even mr and nr a multiple of 4")
	}
	return func(k int, a, b, c *T, ldc int, accumulate bool) {
		size := int(unsafe.Sizeof(*a))
		for i := 0; i < mr; i += 2 {
			for j := 0; j < nr; j += 4 {
				var s [8]T // k == 0: the slivers may be empty, so no pointer into them is formed
				if k > 0 {
					s = block2x4[T](k, mr, nr, unsafe.Add(unsafe.Pointer(a), i*size), unsafe.Add(unsafe.Pointer(b), j*size))
				}
				row0 := (*[4]T)(unsafe.Add(unsafe.Pointer(c), (i*ldc+j)*size))
				row1 := (*[4]T)(unsafe.Add(unsafe.Pointer(c), ((i+1)*ldc+j)*size))
				if accumulate {
					s[0], s[1], s[2], s[3] = row0[0]+s[0], row0[1]+s[1], row0[2]+s[2], row0[3]+s[3]
					s[4], s[5], s[6], s[7] = row1[0]+s[4], row1[1]+s[5], row1[2]+s[6], row1[3]+s[7]
				}
				*row0 = [4]T{s[0], s[1], s[2], s[3]}
				*row1 = [4]T{s[4], s[5], s[6], s[7]}
			}
		}
	}
}

// block2x4 returns the 2×4 block of sums Σ_p a[p*mr+r]·b[p*nr+j], r < 2,
// j < 4, from +0 in order of p, of packed slivers starting at a and b (the
// block's first row and column), for k ≥ 1. The pointers walk the slivers:
// the micro-kernel contract guarantees k·mr and k·nr elements behind them,
// and bounds checks on every step cost a third of the speed. They are
// advanced only while another step follows, so that none points past the
// slivers (checkptr rejects that).
func block2x4[T Elem](k, mr, nr int, a, b unsafe.Pointer) [8]T {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	size := unsafe.Sizeof(*new(T))
	da, db := uintptr(mr)*size, uintptr(nr)*size
	for {
		bp, ap := (*[4]T)(b), (*[2]T)(a)
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		a0, a1 := ap[0], ap[1]
		c00 += T(a0 * b0)
		c01 += T(a0 * b1)
		c02 += T(a0 * b2)
		c03 += T(a0 * b3)
		c10 += T(a1 * b0)
		c11 += T(a1 * b1)
		c12 += T(a1 * b2)
		c13 += T(a1 * b3)
		if k--; k == 0 {
			return [8]T{c00, c01, c02, c03, c10, c11, c12, c13}
		}
		a, b = unsafe.Add(a, da), unsafe.Add(b, db)
	}
}

// microGoRowA returns the Go twin of an mr×nr microKernelRowA: it packs the
// A rows into a sliver and runs microGo.
func microGoRowA[T Elem](mr, nr int) microKernelRowA[T] {
	micro := microGo[T](mr, nr)
	return func(k int, a, b, c *T, ldc, lda int, accumulate bool) {
		size := int(unsafe.Sizeof(*a))
		sliver := make([]T, k*mr+1)
		for i := 0; i < mr; i++ {
			row := unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(a), i*lda*size)), k)
			for p, v := range row {
				sliver[p*mr+i] = v
			}
		}
		micro(k, &sliver[0], b, c, ldc, accumulate)
	}
}
