package gemm

import "unsafe"

// The pure-Go kernels. Their blocking follows the same cache reasoning as the
// assembly ones; the tile is smaller because Go keeps few values in registers.
var (
	goKernelF32 = newKernel("go-f32-4x16", 4, 16, 256, 128, 512, microGo[float32](4, 16))
	goKernelF64 = newKernel("go-f64-4x8", 4, 8, 256, 128, 512, microGo[float64](4, 8))
	goKernelI32 = newKernel("go-i32-4x16", 4, 16, 256, 128, 512, microGo[int32](4, 16))
	goKernelI64 = newKernel("go-i64-4x8", 4, 8, 256, 128, 512, microGo[int64](4, 8))
)

// maxTile bounds mr*nr for every kernel so the Go twin can keep its
// accumulators in a fixed-size array.
const maxTile = 12 * 32

// microGo returns the Go twin of an mr×nr micro-kernel; it computes exactly
// the loop in the microKernel doc comment, summing in the same order as the
// assembly (which differs only in fusing each multiply-add).
func microGo[T Elem](mr, nr int) microKernel[T] {
	if mr*nr > maxTile {
		panic("gemm: tile too large for the Go twin")
	}
	return func(k int, a, b, c *T, ldc int, accumulate bool) {
		ap := unsafe.Slice(a, k*mr)
		bp := unsafe.Slice(b, k*nr)
		var acc [maxTile]T
		t := acc[:mr*nr]
		for p := 0; p < k; p++ {
			brow := bp[p*nr : p*nr+nr]
			for i, av := range ap[p*mr : p*mr+mr] {
				trow := t[i*nr : i*nr+nr]
				for j, bv := range brow {
					trow[j] += av * bv
				}
			}
		}
		size := int(unsafe.Sizeof(acc[0]))
		for i := 0; i < mr; i++ {
			row := unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(c), i*ldc*size)), nr)
			trow := t[i*nr : i*nr+nr]
			if accumulate {
				for j := range row {
					row[j] += trow[j]
				}
			} else {
				copy(row, trow)
			}
		}
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
