package expr

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
)

// TestLibrarySpellings checks the NumPy and PyTorch spellings of views,
// copies, conversions, fixed-rank products and keyword names against the
// values those libraries give (worked out by hand; each is a case of the
// library's own operations).
func TestLibrarySpellings(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2))
	c := tensor.Must(tensor.Ones(tensor.Float32, 2, 3, 4))
	vars := map[string]*tensor.Tensor{"X": x, "C": c}
	expectFormatted(t, vars, []formatted{
		// PyTorch's dim/keepdim and input/other keywords.
		{"X.sum(dim=1)", "Tensor([3. 7.], device=xpux:0)"},
		{"torch.sum(X, dim=0, keepdim=True).shape", "(1, 2)"},
		{"torch.prod(input=X, dim=0)", "Tensor([3. 8.], device=xpux:0)"},
		{"torch.mul(X, other=2)", "Tensor([[2. 4.]\n [6. 8.]], device=xpux:0)"},
		// transpose: two dims swap (PyTorch), a tuple or three dims permute (NumPy).
		{"X.transpose(0, 1)", "Tensor([[1. 3.]\n [2. 4.]], device=xpux:0)"},
		{"torch.transpose(X, 1, 0)", "Tensor([[1. 3.]\n [2. 4.]], device=xpux:0)"},
		{"np.transpose(X, (0, 1))", "Tensor([[1. 2.]\n [3. 4.]], device=xpux:0)"},
		{"C.transpose(0, 2).shape", "(4, 3, 2)"},
		{"C.transpose(-1, 1).shape", "(2, 4, 3)"},
		{"torch.transpose(C, dim0=0, dim1=1).shape", "(3, 2, 4)"},
		{"C.transpose(2, 0, 1).shape", "(4, 2, 3)"},
		{"C.transpose((1, 2, 0)).shape", "(3, 4, 2)"},
		{"np.swapaxes(C, 0, 2).shape", "(4, 3, 2)"},
		{"C.swapdims(1, 2).shape", "(2, 4, 3)"},
		// Size-1 dims, None indices, flattening, views and copies.
		{"X.unsqueeze(0).shape", "(1, 2, 2)"},
		{"torch.unsqueeze(X, -1).shape", "(2, 2, 1)"},
		{"np.expand_dims(X, 1).shape", "(2, 1, 2)"},
		{"ones((1, 2, 1)).squeeze().shape", "(2,)"},
		{"torch.squeeze(ones((1, 2, 1)), dim=2).shape", "(1, 2)"},
		{"X[None].shape", "(1, 2, 2)"},
		{"X[:, None].shape", "(2, 1, 2)"},
		{"X[..., None].shape", "(2, 2, 1)"},
		{"X[None, 1, None]", "Tensor([[[3. 4.]]], device=xpux:0)"},
		{"X[1, None, ::-1]", "Tensor([[4. 3.]], device=xpux:0)"},
		{"X.T.flatten()", "Tensor([1. 3. 2. 4.], device=xpux:0)"},
		{"np.ravel(X)", "Tensor([1. 2. 3. 4.], device=xpux:0)"},
		{"X.view(-1, 1).shape", "(4, 1)"},
		{"X.T.contiguous()", "Tensor([[1. 3.]\n [2. 4.]], device=xpux:0)"},
		{"np.ascontiguousarray(X.T)[0]", "Tensor([1. 3.], device=xpux:0)"},
		{"X.clone() * 1", "Tensor([[1. 2.]\n [3. 4.]], device=xpux:0)"},
		{"np.copy(X)[1]", "Tensor([3. 4.], device=xpux:0)"},
		{"X.expand(3, 2, 2).shape", "(3, 2, 2)"},
		{"X.numel()", "4"},
		{"tensor([1+2j]).conj()", "Tensor([1.-2.j], dtype=complex64, device=xpux:0)"},
		// Conversions.
		{"X.to(torch.float64).dtype", "float64"},
		{"X.double().dtype", "float64"},
		{"X.half().dtype", "float16"},
		{"X.bfloat16().dtype", "bfloat16"},
		{"X.int()", "Tensor([[1 2]\n [3 4]], dtype=int32, device=xpux:0)"},
		{"X.long().dtype", "int64"},
		{"(X - 1).bool()", "Tensor([[False  True]\n [ True  True]], dtype=bool, device=xpux:0)"},
		{"X.type('int8').dtype", "int8"},
		// Shapes spelled out (torch.ones(2, 3)).
		{"torch.ones(2, 3).shape", "(2, 3)"},
		{"torch.zeros(2, 3, dtype=torch.int32).dtype", "int32"},
		{"np.ones((2, 3), np.int8).dtype", "int8"},
		{"np.zeros(3, 'int8')", "Tensor([0 0 0], dtype=int8, device=xpux:0)"},
		// Products of fixed ranks.
		{"torch.mm(X, X)", "Tensor([[ 7. 10.]\n [15. 22.]], device=xpux:0)"},
		{"torch.bmm(C, C.mT).shape", "(2, 3, 3)"},
		{"torch.mv(X, tensor([1., 1.]))", "Tensor([3. 7.], device=xpux:0)"},
		{"torch.dot(tensor([1., 2.]), tensor([3., 4.]))", "Tensor(11.0, device=xpux:0)"},
		{"np.dot(X, X)[1]", "Tensor([15. 22.], device=xpux:0)"},
		{"np.dot(2, X)[0]", "Tensor([2. 4.], device=xpux:0)"},
		// Gradients flow through every spelling.
		{"grad(lambda x: (x[None] * x[:, None]).sum(), X)", "(Tensor([[ 8. 12.]\n [ 8. 12.]], device=xpux:0),)"},
		{"grad(lambda x: torch.mm(x, x.transpose(0, 1)).sum(), X)", "(Tensor([[ 8. 12.]\n [ 8. 12.]], device=xpux:0),)"},
		{"grad(lambda x: x.double().flatten().prod(dim=0), X)", "(Tensor([[24. 12.]\n [ 8.  6.]], device=xpux:0),)"},
		{"grad(lambda x: x.unsqueeze(0).expand(3, 2, 2).contiguous().sum(), X)", "(Tensor([[3. 3.]\n [3. 3.]], device=xpux:0),)"},
		{"vjp(lambda z: z.conj(), tensor([1+1j]), seed=tensor([1+2j]))", "(Tensor([1.-2.j], dtype=complex64, device=xpux:0),)"},
	})
}

func TestLibrarySpellingErrors(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2))
	c := tensor.Must(tensor.Ones(tensor.Float32, 2, 3, 4))
	vars := map[string]*tensor.Tensor{"X": x, "C": c}
	for _, tc := range []struct {
		src  string
		want error
	}{
		{"X.transpose(0, 2)", tensor.ErrAxis},
		{"np.swapaxes(X, -3, 0)", tensor.ErrAxis},
		{"X.transpose(0, 1.5)", tensor.ErrValue},
		{"X.unsqueeze(3)", tensor.ErrAxis},
		{"torch.mm(X, tensor([1., 1.]))", tensor.ErrShape},
		{"torch.bmm(C, ones((3, 4, 2)))", tensor.ErrShape},
		{"torch.mv(X, X)", tensor.ErrShape},
		{"np.dot(C, C)", tensor.ErrShape},
		{"X.squeeze(0)", tensor.ErrShape}, // NumPy's rule; PyTorch leaves such a dim
	} {
		_, err := evalGrad(t, tc.src, vars)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.src, err, tc.want)
		}
	}
	// A keyword that is neither the function's nor an alias of one is a
	// call error, naming the parameters.
	for _, src := range []string{"X.sum(dims=1)", "X.to('bogus')"} {
		var ce *CheckError
		if _, err := evalGrad(t, src, vars); !errors.As(err, &ce) {
			t.Errorf("%s: error %v, want a check error", src, err)
		}
	}
}
