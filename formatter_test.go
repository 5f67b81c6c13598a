package tensor

import (
	"fmt"
	"strings"
	"testing"
)

func TestFormatVerbs(t *testing.T) {
	x := Must(FromNested([][]float32{{1.0 / 3, 2.0 / 3, 1e-7}, {-1, 100, 12345.678}}))
	i := Must(Arange(6, Int32))
	cases := []struct {
		format string
		arg    any
		want   string
	}{
		{"%v", x, x.String()},
		{"%s", x, x.String()},
		{"%.3g", x, "Tensor([[   0.333    0.667    1e-07]\n [      -1      100 1.23e+04]], device=xpux:0)"},
		{"%.6g", ScalarOf(float32(1e-7)), "Tensor(1e-07, device=xpux:0)"},
		{"%10.2e", x, "Tensor([[  3.33e-01   6.67e-01   1.00e-07]\n [ -1.00e+00   1.00e+02   1.23e+04]], device=xpux:0)"},
		{"%-7.1f|", Must(FromSlice([]float64{0.25, -10})), "Tensor([0.2     -10.0  ], dtype=float64, device=xpux:0)|"},
		{"%.1f", Must(FromSlice([]float64{0.25, -10})), "Tensor([  0.2 -10.0], dtype=float64, device=xpux:0)"},
		{"%.2f", i, "Tensor([0.00 1.00 2.00 3.00 4.00 5.00], dtype=int32, device=xpux:0)"},
		{"%3d", Must(i.Slice(Span(0, 2))), "Tensor([  0   1], dtype=int32, device=xpux:0)"},
		{"%x", Must(FromSlice([]uint8{10, 255})), "Tensor([ a ff], dtype=uint8, device=xpux:0)"},
		{"%g", Must(FromSlice([]bool{true, false})), "Tensor([ True False], dtype=bool, device=xpux:0)"},
		{"%.2f", Must(FromSlice([]complex64{1 + 2i})), "Tensor([(1.00+2.00i)], dtype=complex64, device=xpux:0)"},
		{"%.3g", Must(Must(FromSlice([]float32{1.5, 2.25})).AsType(Float16)), "Tensor([ 1.5 2.25], dtype=float16, device=xpux:0)"},
		{"%+v", Must(i.Reshape(2, 3)).Transpose(), "Tensor([[0 3]\n [1 4]\n [2 5]], shape=(3, 2), strides=(1, 3), offset=0, dtype=int32, layout=strided, device=xpux:0)"},
		{"%+v", Must(FromSlice([]float32{1})), "Tensor([1.], shape=(1,), strides=(1,), offset=0, dtype=float32, layout=strided, device=xpux:0)"},
		{"%q", ScalarOf(int8(2)), `"Tensor(2, dtype=int8, device=xpux:0)"`},
		{"%40v|", ScalarOf(int8(2)), "    Tensor(2, dtype=int8, device=xpux:0)|"},
		{"%-40v|", ScalarOf(int8(2)), "Tensor(2, dtype=int8, device=xpux:0)    |"},
		{"%d", ScalarOf(1.5), "%!d(tensor=Tensor(1.5, dtype=float64, device=xpux:0))"},
		{"%.2f", (*Tensor)(nil), "<nil>"},
	}
	for _, c := range cases {
		if got := fmt.Sprintf(c.format, c.arg); got != c.want {
			t.Errorf("Sprintf(%q) =\n%s\nwant\n%s", c.format, got, c.want)
		}
	}
	// Summarised as String() is, wrapped at the same width.
	big := Must(Arange(2000, Float64))
	got := fmt.Sprintf("%.1f", big)
	if !strings.Contains(got, "2.0 ...") || !strings.Contains(got, "1999.0]") {
		t.Errorf("%%.1f of 2000 elements = %s", got)
	}
	// Sparse tensors print String() for element verbs.
	s := Must(Must(FromNested([][]float64{{0, 1}, {2, 0}})).ToSparseCOO())
	if got := fmt.Sprintf("%.2f", s); got != s.String() {
		t.Errorf("%%.2f of a sparse tensor = %s", got)
	}
}
