package ewise

import (
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
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
	for _, op := range []*Binary{Mul, Add} {
		if op.Kernel(dtype.Invalid) != nil || op.Streaming(dtype.Invalid) != nil {
			t.Errorf("%s kernels for the invalid dtype", op.Name)
		}
		for _, dt := range dtype.All {
			if op.Kernel(dt) == nil || op.Streaming(dt) == nil {
				t.Errorf("no %s kernel for %v", op.Name, dt)
			}
		}
	}
	for _, r := range []*Reduction{Prod, Sum} {
		if r.Kernel(dtype.Invalid) != nil {
			t.Errorf("%s kernel for the invalid dtype", r.Name)
		}
		for _, dt := range dtype.All {
			acc := r.Accumulator(dt)
			if r.Kernel(dt) == nil || r.Combine(acc) == nil || r.Accumulator(acc) != acc {
				t.Errorf("no %s kernel for %v, or its accumulator %v is not its own", r.Name, dt, acc)
			}
		}
	}
}
