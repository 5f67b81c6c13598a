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
	if Mul(dtype.Invalid) != nil || Prod(dtype.Invalid) != nil {
		t.Error("kernels for the invalid dtype")
	}
	for _, dt := range dtype.All {
		if Mul(dt) == nil || Prod(dt) == nil {
			t.Errorf("no kernel for %v", dt)
		}
	}
}
