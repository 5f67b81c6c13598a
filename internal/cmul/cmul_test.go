package cmul

import "testing"

// TestProductsRounded checks a case whose fused real part differs: the
// square of (1+e)(1+i) is 2(1+e)²i, and a multiply-add keeps −e² of the
// real part where the rounded products cancel exactly.
func TestProductsRounded(t *testing.T) {
	e32, e64 := float32(1.0/(1<<13)), 1.0/(1<<30)
	x32, x64 := complex(1+e32, 1+e32), complex(1+e64, 1+e64)
	if got, want := Mul64(x32, x32), complex(0, 2*(1+2*e32)); got != want {
		t.Errorf("Mul64(%v, %v) = %v, want %v", x32, x32, got, want)
	}
	if got, want := Mul128(x64, x64), complex(0, 2*(1+2*e64)); got != want {
		t.Errorf("Mul128(%v, %v) = %v, want %v", x64, x64, got, want)
	}
	if got := Mul128(complex(2, 3), complex(4, -5)); got != complex(23, 2) {
		t.Errorf("Mul128(2+3i, 4-5i) = %v, want 23+2i", got)
	}
}
