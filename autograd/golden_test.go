package autograd

import (
	"encoding/json"
	"fmt"
	"math/cmplx"
	"os"
	"testing"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// goldenTensor is a flat row-major tensor of testdata/golden.json: floats,
// or [re, im] pairs for complex dtypes.
type goldenTensor struct {
	Shape []int           `json:"shape"`
	Data  json.RawMessage `json:"data"`
}

type goldenCase struct {
	Func   string `json:"func"`
	DType  string `json:"dtype"`
	Params struct {
		Axis     []int `json:"axis"`
		KeepDims bool  `json:"keepdims"`
	} `json:"params"`
	Inputs []goldenTensor    `json:"inputs"`
	Seed   goldenTensor      `json:"seed"`
	Grads  []json.RawMessage `json:"grads"`
}

func decodeValues(t *testing.T, raw json.RawMessage, complexData bool) []complex128 {
	t.Helper()
	if complexData {
		var pairs [][2]float64
		if err := json.Unmarshal(raw, &pairs); err != nil {
			t.Fatal(err)
		}
		out := make([]complex128, len(pairs))
		for i, p := range pairs {
			out[i] = complex(p[0], p[1])
		}
		return out
	}
	var fs []float64
	if err := json.Unmarshal(raw, &fs); err != nil {
		t.Fatal(err)
	}
	out := make([]complex128, len(fs))
	for i, f := range fs {
		out[i] = complex(f, 0)
	}
	return out
}

func (g goldenTensor) tensor(t *testing.T, dt tensor.DType) *tensor.Tensor {
	t.Helper()
	v := decodeValues(t, g.Data, dt.IsComplex())
	x := tensor.Must(tensor.FromSlice(v, g.Shape...))
	return tensor.Must(x.AsType(dt))
}

// goldenTolerance is the stated tolerance per dtype: relative to the
// golden value plus an absolute floor, a little over one rounding of the
// dtype for the half types (the gradient is computed in float32 both here
// and by the script, then rounded once), and float32 accumulation-order
// noise otherwise.
var goldenTolerance = map[tensor.DType][2]float64{
	tensor.Float32:   {1e-5, 1e-5},
	tensor.Complex64: {1e-5, 1e-5},
	tensor.Float16:   {2e-3, 1e-3},
	tensor.BFloat16:  {1.6e-2, 1e-2},
}

func TestGoldenPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []goldenCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 100 {
		t.Fatalf("only %d golden cases", len(file.Cases))
	}
	for i, c := range file.Cases {
		dt, err := dtype.Parse(c.DType)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%d %s %s", i, c.Func, c.DType)
		xs := make([]*tensor.Tensor, len(c.Inputs))
		for j, in := range c.Inputs {
			xs[j] = in.tensor(t, dt)
		}
		tp := New()
		out, err := goldenFunc(tp, c, xs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seed := c.Seed.tensor(t, dt)
		grads, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, xs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tol := goldenTolerance[dt]
		for j, g := range grads {
			if g.DType() != dt || !equalInts(g.Shape(), c.Inputs[j].Shape) {
				t.Fatalf("%s: gradient %d is %v %v", name, j, g.DType(), g.Shape())
			}
			want := decodeValues(t, c.Grads[j], dt.IsComplex())
			for k, v := range values(t, g) {
				if d := cmplx.Abs(v - want[k]); d > tol[1]+tol[0]*cmplx.Abs(want[k]) {
					t.Errorf("%s: gradient %d[%d] = %v, PyTorch %v", name, j, k, v, want[k])
				}
			}
		}
	}
}

func goldenFunc(tp *Tape, c goldenCase, xs []*tensor.Tensor) (*tensor.Tensor, error) {
	switch c.Func {
	case "mul":
		return tp.Mul(xs[0], xs[1])
	case "matmul":
		return tp.Matmul(xs[0], xs[1])
	case "prod":
		opts := []tensor.ReduceOption{tensor.KeepDims(c.Params.KeepDims)}
		if c.Params.Axis != nil {
			opts = append(opts, tensor.Axis(c.Params.Axis...))
		}
		return tp.Prod(xs[0], opts...)
	case "sub":
		d, err := tp.Sub(xs[0], xs[1])
		if err != nil {
			return nil, err
		}
		h, err := tp.Mul(0.5, xs[0])
		if err != nil {
			return nil, err
		}
		if h, err = tp.Sub(xs[1], h); err != nil {
			return nil, err
		}
		if h, err = tp.Neg(h); err != nil {
			return nil, err
		}
		return tp.Mul(d, h)
	case "views":
		a, err := tp.Transpose(xs[0])
		if err == nil {
			a, err = tp.Slice(a, tensor.All().By(-1), tensor.All().By(2))
		}
		if err == nil {
			a, err = tp.Mul(a, xs[1])
		}
		if err != nil {
			return nil, err
		}
		return tp.Prod(a, tensor.Axis(0))
	}
	return nil, fmt.Errorf("unknown golden function %q", c.Func)
}
