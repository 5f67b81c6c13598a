package expr

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// torchTensor is a tensor of testdata/vjp_torch.json: flat row-major
// values, [re, im] pairs for complex dtypes.
type torchTensor struct {
	DType string          `json:"dtype"`
	Shape []int           `json:"shape"`
	Data  json.RawMessage `json:"data"`
}

func (g torchTensor) tensor(t *testing.T) *tensor.Tensor {
	t.Helper()
	dt, err := dtype.Parse(g.DType)
	if err != nil {
		t.Fatal(err)
	}
	var values []complex128
	if dt.IsComplex() {
		var pairs [][2]float64
		if err := json.Unmarshal(g.Data, &pairs); err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			values = append(values, complex(p[0], p[1]))
		}
	} else {
		var fs []float64
		if err := json.Unmarshal(g.Data, &fs); err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			values = append(values, complex(f, 0))
		}
	}
	return tensor.Must(tensor.Must(tensor.FromSlice(values, g.Shape...)).AsType(dt))
}

// TestVJPAgainstPyTorch evaluates random vjp expressions (first and second
// derivatives of mul/add/sub, matmul of every rank case, prod and sum with
// zeros in their inputs, and views) and compares each gradient's shape,
// dtype and values with torch.autograd.grad's, committed by
// testdata/gen_vjp_torch.py. The tolerances are float32's and float64's
// accumulation-order noise: the two libraries sum in different orders.
func TestVJPAgainstPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/vjp_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Expr  string                 `json:"expr"`
			Vars  map[string]torchTensor `json:"vars"`
			Grads []torchTensor          `json:"grads"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 200 {
		t.Fatalf("%d cases in testdata/vjp_torch.json, want at least 200", len(file.Cases))
	}
	for _, c := range file.Cases {
		vars := map[string]*tensor.Tensor{}
		for name, v := range c.Vars {
			vars[name] = v.tensor(t)
		}
		got, ok := evalTuple(t, c.Expr, vars, len(c.Grads))
		if !ok {
			continue
		}
		for i, g := range got {
			want := c.Grads[i].tensor(t)
			gt := g.(*tensor.Tensor)
			tol := 1e-9
			if want.DType() == tensor.Float32 {
				tol = 2e-5
			}
			close, err := tensor.AllClose(gt, want, tensor.RTol(tol), tensor.ATol(tol))
			if err != nil || !close || !slices.Equal(gt.Shape(), want.Shape()) || gt.DType() != want.DType() {
				t.Errorf("%s: gradient %d is\n%v\nPyTorch gives\n%v (%v)", c.Expr, i, gt, want, err)
			}
		}
	}
}

// evalTuple parses, checks and evaluates a golden case's expression with
// vars bound and returns its tuple of want gradients, or reports why not
// (false: the caller goes on to the next case).
func evalTuple(t *testing.T, expr string, vars map[string]*tensor.Tensor, want int) (Tuple, bool) {
	t.Helper()
	n, err := Parse(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	env := &Env{Vars: vars}
	if err := Check(n, env.Bound); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	v, err := env.Eval(n)
	if err != nil {
		t.Errorf("%s: %v", expr, err)
		return nil, false
	}
	got, ok := v.(Tuple)
	if !ok || len(got) != want {
		t.Errorf("%s: got %v, want a tuple of %d gradients", expr, v, want)
		return nil, false
	}
	return got, true
}
