package tensor

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/internal/storage"
)

// releaseOperands returns two 64×64 float64 operands, whose product (32 KiB)
// is a pooled buffer.
func releaseOperands(t *testing.T) (a, b *Tensor) {
	t.Helper()
	if !storage.Enabled || 64*64*8 < storage.MinPooled {
		t.Skip("the memory pool is off or does not track 32 KiB buffers")
	}
	return Must(Rand(1, Float64, -1, 1, 64, 64)), Must(Rand(2, Float64, -1, 1, 64, 64))
}

// TestReleaseHandsMemoryToTheNextResult checks that the next result of the
// same size reuses a released result's memory, and holds its own values.
func TestReleaseHandsMemoryToTheNextResult(t *testing.T) {
	a, b := releaseOperands(t)
	c := Must(Matmul(a, b))
	want := floats(t, (c))
	p := c.storage
	c.Release()
	d := Must(Matmul(a, b))
	if d.storage != p {
		t.Fatalf("the product after Release did not reuse the released result's memory")
	}
	if got := floats(t, (d)); !slices.Equal(got, want) {
		t.Fatalf("the product into reused memory differs from the first one")
	}
}

// TestReleaseHandsSmallMemoryToTheNextResult checks that a result below
// the pool's tracked sizes (a 16×16 float64 product, 2 KiB) also serves
// the next result once released.
func TestReleaseHandsSmallMemoryToTheNextResult(t *testing.T) {
	if !storage.Enabled || 16*16*8 < storage.MinReleased || 16*16*8 >= storage.MinPooled {
		t.Skip("2 KiB buffers are not given back to the pool here")
	}
	a, b := Must(Rand(1, Float64, -1, 1, 16, 16)), Must(Rand(2, Float64, -1, 1, 16, 16))
	c := Must(Matmul(a, b))
	want := floats(t, c)
	p := c.storage
	c.Release()
	d := Must(Matmul(a, b))
	if d.storage != p {
		t.Fatalf("the product after Release did not reuse the released result's memory")
	}
	if got := floats(t, d); !slices.Equal(got, want) {
		t.Fatalf("the product into reused memory differs from the first one")
	}
}

// TestReleaseLeavesViewedMemory checks that a result with a view is not
// recycled: the view keeps its values while new results are computed.
func TestReleaseLeavesViewedMemory(t *testing.T) {
	a, b := releaseOperands(t)
	c := Must(Matmul(a, b))
	want := floats(t, (c.Transpose()))
	v := c.Transpose()
	p := c.storage
	c.Release()
	for range 4 {
		d := Must(Matmul(b, a))
		if d.storage == p {
			t.Fatalf("a released result with a live view was recycled")
		}
		d.Release()
	}
	if got := floats(t, (v)); !slices.Equal(got, want) {
		t.Fatalf("the view of a released result changed")
	}
}

// opResult is the error one operation returned, with the name it must give.
type opResult struct {
	op  string
	err error
}

// everyOperation runs every exported operation with the unusable tensor r
// (and the unusable 1-D tensor rvec) as an operand, as an output and
// through a view taken of it, beside the usable operands a and b (64×64
// float64).
func everyOperation(r, rvec, a, b *Tensor) []opResult {
	out := Must(Zeros(Float64, 64, 64))
	vec := Must(Zeros(Float64, 64))
	rows, cols := []int64{0, 1}, []int64{1, 0}
	sp := Must(NewSparseCOO(rows, cols, Must(FromSlice([]float64{1, 2})), 64, 64))
	first := func(_ *Tensor, err error) error { return err }
	return []opResult{
		{"at", func() error { _, err := r.At(0, 0); return err }()},
		{"item", func() error { _, err := r.Item(); return err }()},
		{"to_slice", func() error { _, err := ToSlice[float64](r); return err }()},
		{"to_slice", func() error { _, err := ToSlice[int32](r); return err }()},
		{"elements", func() error { _, err := Elements[float64](r); return err }()},
		{"get", func() error { _, err := Get[float64](r, 0, 0); return err }()},
		{"set", Set(r, 1.0, 0, 0)},
		{"each", func() error { _, err := Each[float64](r); return err }()},
		{"copy", Copy(r, a)},
		{"copy", Copy(out, r)},
		{"astype", first(r.AsType(Float32))},
		{"mul", first(Mul(r, 2.0))},
		{"mul", first(Mul(2.0, r))},
		{"mul", first(Mul(a, r))},
		{"mul", first(Mul(sp, r))},
		{"mul", MulInto(r, a, b)},
		{"mul", MulInto(out, r, b)},
		{"matmul", first(Matmul(r, b))},
		{"matmul", first(Matmul(a, r))},
		{"matmul", first(Matmul(sp, r))},
		{"matmul", MatmulInto(r, a, b)},
		{"matmul", MatmulInto(out, a, r)},
		{"prod", first(Prod(r))},
		{"prod", ProdInto(vec, r, Axis(0))},
		{"prod", ProdInto(rvec, a)},
		{"reshape", first(r.Reshape(4096))},
		{"permute", first(r.Permute(1, 0))},
		{"mT", first(r.MT())},
		{"broadcast_to", first(r.BroadcastTo(2, 64, 64))},
		{"contiguous", first(r.Contiguous())},
		{"clone", first(r.Clone())},
		{"slice", first(r.Slice(Span(0, 2)))},
		{"squeeze", first(r.Squeeze())},
		{"expand_dims", first(r.ExpandDims(0))},
		{"to_sparse_coo", first(r.ToSparseCOO())},
		{"to_sparse_csr", first(r.ToSparseCSR())},
		{"to_dense", first(r.ToDense())},
		{"coalesce", first(r.Coalesce())},
		{"sparse_parts", func() error { _, _, _, err := r.SparseParts(); return err }()},
		{"sparse_coo_tensor", first(NewSparseCOO(rows, cols, rvec, 64, 64))},
		{"sparse_csr_tensor", first(NewSparseCSR([]int64{0, 1, 2}, cols, rvec, 2, 2))},
		{"write_npy", WriteNPY(&bytes.Buffer{}, r)},
		{"write_npz", WriteNPZ(&bytes.Buffer{}, []NamedTensor{{Name: "r", Tensor: r}}, false)},
		{"write_sparse_npz", WriteSparseNPZ(&bytes.Buffer{}, r, false)},
		{"matmul", first(Matmul(r.Transpose(), b))},
	}
}

// checkEveryOperation checks that every operation failed with class,
// naming itself.
func checkEveryOperation(t *testing.T, what string, class error, results []opResult) {
	t.Helper()
	for _, tc := range results {
		if !errors.Is(tc.err, class) || !strings.Contains(fmt.Sprint(tc.err), tc.op+":") {
			t.Errorf("%s on %s: error %v, want a %v error naming %s", tc.op, what, tc.err, class, tc.op)
		}
	}
}

// TestReleasedTensorIsAnErrorEverywhere checks that every operation taking a
// released tensor, as an operand, an output or through a view taken after
// the release, fails with ErrReleased naming itself instead of reading
// memory that another result may own.
func TestReleasedTensorIsAnErrorEverywhere(t *testing.T) {
	a, b := releaseOperands(t)
	r := Must(Matmul(a, b))
	r.Release()
	r.Release()                        // a second Release does nothing
	rvec := Must(Zeros(Float64, 2048)) // pooled, so that Release recycles it
	rvec.Release()
	checkEveryOperation(t, "a released tensor", ErrReleased, everyOperation(r, rvec, a, b))
	if s := r.String(); !strings.Contains(s, "released") {
		t.Errorf("a released tensor prints as %q", s)
	}
}

// TestZeroValueTensorIsAnErrorEverywhere checks the same for the zero
// value Tensor{} (a struct field held by value is a realistic mistake):
// an ErrValue error from every operation, where before Mul panicked in
// cast.Kernel, Prod divided by zero and String panicked.
func TestZeroValueTensorIsAnErrorEverywhere(t *testing.T) {
	a, b := Must(Rand(1, Float64, -1, 1, 64, 64)), Must(Rand(2, Float64, -1, 1, 64, 64))
	var z, zvec Tensor
	checkEveryOperation(t, "the zero value", ErrValue, everyOperation(&z, &zvec, a, b))
	if s := z.String(); !strings.Contains(s, "zero value") {
		t.Errorf("the zero value prints as %q", s)
	}
	_, err := ToSlice[int32](nil)
	checkEveryOperation(t, "a nil *Tensor", ErrValue, []opResult{{"to_slice", err}})
}

// TestReleaseOfSparseDoesNothing checks that a sparse tensor stays usable.
func TestReleaseOfSparseDoesNothing(t *testing.T) {
	s := Must(NewSparseCOO([]int64{0}, []int64{1}, Must(FromSlice([]float64{3})), 2, 2))
	s.Release()
	d := Must(s.ToDense())
	if got := floats(t, (d)); !slices.Equal(got, []float64{0, 3, 0, 0}) {
		t.Fatalf("a sparse tensor after Release densifies to %v", got)
	}
	var nilTensor *Tensor
	nilTensor.Release()
}

// floats returns the elements of a float64 tensor.
func floats(t *testing.T, x *Tensor) []float64 {
	t.Helper()
	s, err := ToSlice[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
