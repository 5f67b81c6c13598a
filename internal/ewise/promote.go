package ewise

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/iter"
)

// chunk is how many elements of a run a promoting kernel converts at a
// time: three buffers of 256 elements of at most 16 bytes stay in L1.
const chunk = 256

// maxElem is the largest element size, complex128's.
const maxElem = 16

// converter converts a run between two fixed dtypes (see cast.Kernel).
type converter = func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int)

// Promoter computes a binary operation on operands [dst, a, b] of mixed
// dtypes in a common compute dtype c: chunks of a and b whose dtype is not
// c are converted into small buffers first, and the results are converted
// into dst when its dtype is not c. No temporary of the operands' size is
// ever made. An operand of stride 0 is converted once per run. float32 op
// int32 into float32, contiguous, goes to the operation's fused kernel
// instead where it has one.
//
// A Promoter owns its buffers, so each goroutine needs its own. They are
// pooled: GetPromoter and Release make a product allocate nothing.
type Promoter struct {
	// Kernel is the promoting kernel, an iter.Kernel bound to this
	// Promoter once, when it is first made.
	Kernel iter.Kernel

	kernel  iter.Kernel // the operation's kernel of dtype c
	f32i32  func(dst, a []float32, b []int32)
	size    int // c's element size
	conv    [3]converter
	same    bool // no operand needs converting
	fused   bool // the fused float32 op int32 case
	intA    bool // in it, a is the int32 operand
	buf     [3]unsafe.Pointer
	scratch [3 * chunk * maxElem]byte
	ptrs    [3]unsafe.Pointer
	strides [3]int
}

var promoters = sync.Pool{New: func() any {
	p := new(Promoter)
	p.Kernel = p.run
	for i := range p.buf {
		p.buf[i] = unsafe.Pointer(&p.scratch[i*chunk*maxElem])
	}
	return p
}}

// GetPromoter returns a pooled Promoter of op set up for compute dtype c
// and operand dtypes dts. Release it when the operation is done.
func (op *Binary) GetPromoter(c dtype.DType, dts [3]dtype.DType) *Promoter {
	p := promoters.Get().(*Promoter)
	p.kernel, p.size, p.f32i32 = op.Kernel(c), c.Size(), op.f32i32
	for i, dt := range dts {
		switch {
		case dt == c:
			p.conv[i] = nil
		case i == 0:
			p.conv[0] = cast.Kernel(dt, c)
		default:
			p.conv[i] = cast.Kernel(c, dt)
		}
	}
	p.same = dts == [3]dtype.DType{c, c, c}
	p.fused = p.f32i32 != nil && c == dtype.Float32 && dts[0] == dtype.Float32 &&
		(dts[1] == dtype.Float32 && dts[2] == dtype.Int32 || dts[1] == dtype.Int32 && dts[2] == dtype.Float32)
	p.intA = dts[1] == dtype.Int32
	return p
}

// Release returns p to the pool; p must not be used afterwards.
// The operands' addresses are dropped so that an idle pooled Promoter does
// not keep a dropped tensor's memory alive.
func (p *Promoter) Release() {
	p.ptrs = [3]unsafe.Pointer{}
	p.f32i32 = nil
	promoters.Put(p)
}

// run is the promoting kernel.
func (p *Promoter) run(ptrs []unsafe.Pointer, strides []int, n int) {
	if p.same {
		p.kernel(ptrs, strides, n) // whole runs: vec streams long outputs
		return
	}
	if p.fused && UseVec && strides[0] == 4 && strides[1] == 4 && strides[2] == 4 {
		f, i := ptrs[1], ptrs[2]
		if p.intA { // the operation commutes
			f, i = i, f
		}
		p.f32i32(run[float32](ptrs[0], n), run[float32](f, n), run[int32](i, n))
		return
	}
	for done := 0; done < n; done += chunk {
		m := min(chunk, n-done)
		for i := range 3 {
			src := unsafe.Add(ptrs[i], done*strides[i])
			switch {
			case p.conv[i] == nil:
				p.ptrs[i], p.strides[i] = src, strides[i]
			case i == 0:
				p.ptrs[0], p.strides[0] = p.buf[0], p.size
			case strides[i] == 0:
				if done == 0 {
					p.conv[i](p.buf[i], 0, src, 0, 1)
				}
				p.ptrs[i], p.strides[i] = p.buf[i], 0
			default:
				p.conv[i](p.buf[i], p.size, src, strides[i], m)
				p.ptrs[i], p.strides[i] = p.buf[i], p.size
			}
		}
		p.kernel(p.ptrs[:], p.strides[:], m)
		if p.conv[0] != nil {
			p.conv[0](unsafe.Add(ptrs[0], done*strides[0]), strides[0], p.buf[0], p.size, m)
		}
	}
}
