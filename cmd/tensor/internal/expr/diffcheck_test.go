package expr

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/tensor-go/tensor"
)

// goldenDense is a float64 tensor of testdata/diffcheck_golden.json.
type goldenDense struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

func (g goldenDense) tensor(t *testing.T) *tensor.Tensor {
	t.Helper()
	return tensor.Must(tensor.FromSlice(append([]float64{}, g.Data...), g.Shape...))
}

// TestDiffcheckGolden evaluates the regression cases of the differential
// checker (testdata/diffcheck.py at the repository's root, which ran the
// command line against PyTorch) and compares the gradients with
// PyTorch's, committed by diffcheck.py --golden. Sparse gradients are
// compared dense, as -o writes them, and by their number of entries.
func TestDiffcheckGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/diffcheck_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Expr   string                 `json:"expr"`
			Dense  map[string]goldenDense `json:"dense"`
			Sparse map[string]struct {
				Rows, Cols []int64
				Values     []float64
				Shape      []int
			} `json:"sparse"`
			Grads []goldenDense `json:"grads"`
			Nnz   []*int        `json:"nnz"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range file.Cases {
		vars := map[string]*tensor.Tensor{}
		for name, d := range c.Dense {
			vars[name] = d.tensor(t)
		}
		for name, s := range c.Sparse {
			values := tensor.Must(tensor.FromSlice(append([]float64{}, s.Values...)))
			vars[name] = tensor.Must(tensor.NewSparseCOO(s.Rows, s.Cols, values, s.Shape...))
		}
		got, ok := evalTuple(t, c.Expr, vars, len(c.Grads))
		if !ok {
			continue
		}
		for i, g := range got {
			gt := g.(*tensor.Tensor)
			if c.Nnz[i] != nil && (gt.Layout() == tensor.Strided || gt.Nnz() != *c.Nnz[i]) {
				t.Errorf("%s: gradient %d is %v, want a sparse tensor of %d entries", c.Expr, i, gt, *c.Nnz[i])
			}
			dense := tensor.Must(gt.ToDense())
			want := c.Grads[i].tensor(t)
			close, err := tensor.AllClose(dense, want, tensor.RTol(1e-12), tensor.ATol(1e-12))
			if err != nil || !close || !slices.Equal(dense.Shape(), want.Shape()) {
				t.Errorf("%s: gradient %d is\n%v\nPyTorch gives\n%v (%v)", c.Expr, i, dense, want, err)
			}
		}
	}
}
