package gonum

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
	"gonum.org/v1/gonum/mat"
)

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i + 1)
	}
	return s
}

func TestFromDenseShares(t *testing.T) {
	d := mat.NewDense(3, 4, seq(12))
	x, err := FromDense(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := x.Shape(); s[0] != 3 || s[1] != 4 || x.DType() != tensor.Float64 {
		t.Fatalf("FromDense gave %v %v", s, x.DType())
	}
	d.Set(1, 2, -7)
	if v, _ := tensor.Get[float64](x, 1, 2); v != -7 {
		t.Fatalf("a write through gonum is not seen: %v", v)
	}
	if err := tensor.Set(x, 9.0, 2, 3); err != nil || d.At(2, 3) != 9 {
		t.Fatalf("a write through the tensor is not seen: %v %v", d.At(2, 3), err)
	}
	// A sub-matrix keeps its stride: still shared.
	sub := d.Slice(1, 3, 1, 3).(*mat.Dense)
	y, err := FromDense(sub)
	if err != nil {
		t.Fatal(err)
	}
	if st := y.Strides(); st[0] != 4 || st[1] != 1 {
		t.Fatalf("sub-matrix strides %v", st)
	}
	want := tensor.Must(tensor.FromNested([][]float64{{6, -7}, {10, 11}}))
	if !tensor.Equal(y, want) {
		t.Fatalf("sub-matrix = %v", y)
	}
	// The transpose is a view too.
	z, err := FromMatrix(d.T())
	if err != nil || !tensor.Equal(z, x.Transpose()) {
		t.Fatalf("FromMatrix(d.T()) = %v, %v", z, err)
	}
	if st := z.Strides(); st[0] != 1 || st[1] != 4 {
		t.Fatalf("transpose strides %v: copied?", st)
	}
	var empty mat.Dense
	if e, err := FromDense(&empty); err != nil || e.Size() != 0 {
		t.Fatalf("empty Dense: %v, %v", e, err)
	}
}

func TestFromMatrixAndVector(t *testing.T) {
	sym := mat.NewSymDense(2, []float64{1, 2, 2, 3})
	x, err := FromMatrix(sym)
	if err != nil || !tensor.Equal(x, tensor.Must(tensor.FromNested([][]float64{{1, 2}, {2, 3}}))) {
		t.Fatalf("FromMatrix(SymDense) = %v, %v", x, err)
	}
	// A VecDense with an increment: a strided view, as a vector and as a column.
	col := mat.NewDense(3, 2, seq(6)).ColView(1).(*mat.VecDense)
	v, err := FromVector(col)
	if err != nil || !tensor.Equal(v, tensor.Must(tensor.FromSlice([]float64{2, 4, 6}))) || v.Strides()[0] != 2 {
		t.Fatalf("FromVector(ColView) = %v %v, %v", v, v.Strides(), err)
	}
	c, err := FromMatrix(col)
	if err != nil || !tensor.Equal(c, tensor.Must(tensor.FromNested([][]float64{{2}, {4}, {6}}))) {
		t.Fatalf("FromMatrix(VecDense) = %v, %v", c, err)
	}
	tri := mat.NewTriDense(2, mat.Upper, []float64{1, 2, 0, 3})
	if x, err := FromMatrix(tri.T()); err != nil || !tensor.Equal(x, tensor.Must(tensor.FromNested([][]float64{{1, 0}, {2, 3}}))) {
		t.Fatalf("FromMatrix(tri.T()) = %v, %v", x, err)
	}
	if _, err := FromMatrix(nil); err == nil {
		t.Error("FromMatrix(nil) did not fail")
	}
}

func TestToDense(t *testing.T) {
	x := tensor.Must(tensor.Wrap(seq(12), 3, 4))
	d, err := ViewDense(x)
	if err != nil {
		t.Fatal(err)
	}
	d.Set(0, 0, 100)
	if v, _ := tensor.Get[float64](x, 0, 0); v != 100 {
		t.Fatal("ViewDense copied")
	}
	// A block of columns is shared, with the tensor's row stride.
	block := tensor.Must(x.Slice(tensor.From(1), tensor.Span(1, 3)))
	b, err := ViewDense(block)
	if err != nil {
		t.Fatal(err)
	}
	if b.RawMatrix().Stride != 4 || b.At(1, 1) != 11 {
		t.Fatalf("block view: stride %d, (1,1) = %v", b.RawMatrix().Stride, b.At(1, 1))
	}
	// Layouts gonum cannot share: ViewDense refuses, ToDense copies.
	for _, v := range []*tensor.Tensor{
		x.Transpose(),
		tensor.Must(x.Slice(tensor.All(), tensor.All().By(2))),
		tensor.Must(tensor.Must(tensor.Wrap(seq(4))).BroadcastTo(3, 4)),
		tensor.Must(x.Slice(tensor.All().By(-1))),
	} {
		if _, err := ViewDense(v); !errors.Is(err, ErrCopyNeeded) || !errors.Is(err, tensor.ErrLayout) {
			t.Errorf("ViewDense(strides %v) = %v, want ErrCopyNeeded", v.Strides(), err)
		}
		m, err := ToDense(v)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := FromDense(m)
		if !tensor.Equal(back, v) {
			t.Errorf("ToDense(strides %v) = %v, want %v", v.Strides(), back, v)
		}
	}
	// Other dtypes convert on the way, sparse tensors too.
	f32 := tensor.Must(tensor.FromNested([][]float32{{1.5, 2}}))
	if _, err := ViewDense(f32); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("ViewDense(float32): %v", err)
	}
	if m, err := ToDense(f32); err != nil || m.At(0, 0) != 1.5 {
		t.Errorf("ToDense(float32) = %v, %v", m, err)
	}
	sp := tensor.Must(tensor.Must(tensor.FromNested([][]float64{{0, 2}, {3, 0}})).ToSparseCSR())
	if m, err := ToDense(sp); err != nil || m.At(1, 0) != 3 {
		t.Errorf("ToDense(sparse) = %v, %v", m, err)
	}
	for _, bad := range []*tensor.Tensor{tensor.Must(tensor.Wrap(seq(3))), tensor.Must(tensor.Zeros(tensor.Float64, 0, 3)), nil} {
		if _, err := ToDense(bad); err == nil {
			t.Errorf("ToDense(%v) did not fail", bad)
		}
	}
}

func TestToVecDense(t *testing.T) {
	x := tensor.Must(tensor.Wrap(seq(6)))
	every2 := tensor.Must(x.Slice(tensor.All().By(2)))
	v, err := ViewVecDense(every2)
	if err != nil || v.Len() != 3 || v.AtVec(2) != 5 || v.RawVector().Inc != 2 {
		t.Fatalf("ViewVecDense = %v, %v", v, err)
	}
	v.SetVec(0, -1)
	if g, _ := tensor.Get[float64](x, 0); g != -1 {
		t.Fatal("ViewVecDense copied")
	}
	rev := tensor.Must(x.Slice(tensor.All().By(-1)))
	if _, err := ViewVecDense(rev); !errors.Is(err, ErrCopyNeeded) {
		t.Errorf("ViewVecDense(reversed): %v", err)
	}
	if c, err := ToVecDense(rev); err != nil || c.AtVec(0) != 6 || c.AtVec(5) != -1 {
		t.Errorf("ToVecDense(reversed) = %v, %v", c, err)
	}
	if _, err := ToVecDense(tensor.Must(tensor.Zeros(tensor.Float64, 2, 2))); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("ToVecDense(2-D): %v", err)
	}
}

// TestMatmulAgainstGonum checks the round trip gonum → tensor → gonum on a
// sub-matrix, against gonum's own product.
func TestMatmulAgainstGonum(t *testing.T) {
	big := mat.NewDense(40, 50, nil)
	for i := range 40 {
		for j := range 50 {
			big.Set(i, j, float64((i*7+j*3)%11)-5)
		}
	}
	a := big.Slice(2, 35, 1, 30).(*mat.Dense)  // 33×29, stride 50
	b := big.Slice(5, 34, 10, 47).(*mat.Dense) // 29×37
	var want mat.Dense
	want.Mul(a, b)
	ta, _ := FromDense(a)
	tb, _ := FromDense(b)
	prod, err := tensor.Matmul(ta, tb)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ViewDense(prod)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, &want) { // small integers: exact in any order
		t.Fatalf("tensor product differs from gonum's")
	}
}
