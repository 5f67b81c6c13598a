package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// chunk is how many elements of a run a promoting kernel converts at a
// time: three buffers of 256 elements of at most 16 bytes stay in L1.
const chunk = 256

// MulPromoted returns a kernel for operands [dst, a, b] of dtypes dts that
// multiplies in dtype c: chunks of a and b whose dtype is not c are
// converted into small buffers first, and the products are converted into
// dst when its dtype is not c. No temporary of the operands' size is ever
// made. An operand of stride 0 is converted once per run.
//
// The kernel owns its buffers: use one kernel per goroutine.
func MulPromoted(c dtype.DType, dts [3]dtype.DType) iter.Kernel {
	if dts[0] == c && dts[1] == c && dts[2] == c {
		return Mul(c)
	}
	k := Mul(c)
	size := c.Size()
	var conv [3]func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int)
	for i, dt := range dts {
		switch {
		case dt == c:
		case i == 0:
			conv[0] = cast.Kernel(dt, c)
		default:
			conv[i] = cast.Kernel(c, dt)
		}
	}
	scratch := make([]byte, 3*chunk*size)
	var buf [3]unsafe.Pointer
	for i := range buf {
		buf[i] = unsafe.Pointer(&scratch[i*chunk*size])
	}
	// The kernel's argument slices live with the closure so that calling
	// the inner kernel through a function value allocates nothing.
	ptrs, strides := make([]unsafe.Pointer, 3), make([]int, 3)
	f32i32 := c == dtype.Float32 && dts[0] == dtype.Float32 &&
		(dts[1] == dtype.Float32 && dts[2] == dtype.Int32 || dts[1] == dtype.Int32 && dts[2] == dtype.Float32)
	return func(p []unsafe.Pointer, s []int, n int) {
		if f32i32 && UseVec && s[0] == 4 && s[1] == 4 && s[2] == 4 {
			mulF32I32(p, dts[1] == dtype.Int32, n)
			return
		}
		for done := 0; done < n; done += chunk {
			m := min(chunk, n-done)
			for i := range 3 {
				src := unsafe.Add(p[i], done*s[i])
				switch {
				case conv[i] == nil:
					ptrs[i], strides[i] = src, s[i]
				case i == 0:
					ptrs[0], strides[0] = buf[0], size
				case s[i] == 0:
					if done == 0 {
						conv[i](buf[i], 0, src, 0, 1)
					}
					ptrs[i], strides[i] = buf[i], 0
				default:
					conv[i](buf[i], size, src, s[i], m)
					ptrs[i], strides[i] = buf[i], size
				}
			}
			k(ptrs, strides, m)
			if conv[0] != nil {
				conv[0](unsafe.Add(p[0], done*s[0]), s[0], buf[0], size, m)
			}
		}
	}
}

// mulF32I32 is the fused float32 × int32 run, the int32 operand converted
// on the fly; multiplication commutes, so either side may be the int32.
func mulF32I32(p []unsafe.Pointer, intFirst bool, n int) {
	f, i := p[1], p[2]
	if intFirst {
		f, i = i, f
	}
	vec.MulF32I32(run[float32](p[0], n), run[float32](f, n), run[int32](i, n))
}
