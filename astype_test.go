package tensor

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/x448/float16"
)

// addressOf returns the address of t's element at idx.
func addressOf(t *Tensor, idx []int) unsafe.Pointer {
	pos := t.offset
	for i, v := range idx {
		pos += v * t.strides[i]
	}
	return unsafe.Add(t.storage, pos*t.dtype.Size())
}

// walkIndex calls f with every index of s in row-major order.
func walkIndex(s []int, f func(idx []int)) {
	n := countOf(s)
	idx := make([]int, len(s))
	for range n {
		f(idx)
		for d := len(s) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < s[d] {
				break
			}
			idx[d] = 0
		}
	}
}

func countOf(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// checkConverted checks, element by element through the index, that dst
// holds src's elements converted one at a time by the cast kernel.
func checkConverted(t *testing.T, what string, dst, src *Tensor) {
	t.Helper()
	if !slices.Equal(dst.shape, src.shape) {
		t.Fatalf("%s: shape %v, want %v", what, dst.shape, src.shape)
	}
	size := dst.dtype.Size()
	want := make([]byte, size)
	bad := 0
	walkIndex(src.shape, func(idx []int) {
		cast.Run(unsafe.Pointer(&want[0]), dst.dtype, 0, addressOf(src, idx), src.dtype, 0, 1)
		got := unsafe.Slice((*byte)(addressOf(dst, idx)), size)
		if !bytes.Equal(got, want) && bad < 5 {
			bad++
			t.Errorf("%s: element %v is % x, want % x", what, idx, got, want)
		}
	})
}

// randomBits returns a contiguous tensor of dt with random bits (bool:
// 0 or 1) and the given shape.
func randomBits(t testing.TB, rng *rand.Rand, dt DType, s ...int) *Tensor {
	t.Helper()
	x, err := empty(dt, s)
	if err != nil {
		t.Fatal(err)
	}
	raw := unsafe.Slice((*byte)(x.storage), x.n*dt.Size())
	for i := range raw {
		raw[i] = byte(rng.Uint32())
		if dt == Bool {
			raw[i] &= 1
		}
	}
	return x
}

// TestAsTypeAllDTypes converts between every pair of dtypes and checks
// the result's metadata and every element.
func TestAsTypeAllDTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, st := range dtype.All {
		x := randomBits(t, rng, st, 3, 5, 7)
		for _, dt := range dtype.All {
			y, err := x.AsType(dt)
			if err != nil {
				t.Fatalf("%v → %v: %v", st, dt, err)
			}
			if y.dtype != dt || !y.IsContiguous() || y.storage == x.storage {
				t.Fatalf("%v → %v: dtype %v, contiguous %v, shares storage %v", st, dt, y.dtype, y.IsContiguous(), y.storage == x.storage)
			}
			checkConverted(t, st.String()+" → "+dt.String(), y, x)
		}
	}
}

// TestAsTypeValues spot-checks the documented conversions end to end.
func TestAsTypeValues(t *testing.T) {
	x := Must(FromSlice([]float64{2.7, -1.5, 300.5, math.NaN(), math.Inf(1), math.Copysign(0, -1), 1e5}))
	ints := Must(x.AsType(Int8))
	if got := contiguousData[int8](ints); !slices.Equal(got, []int8{2, -1, 44, 0, 0, 0, -96}) {
		t.Errorf("float64 → int8 = %v", got)
	}
	bytes := Must(x.AsType(Uint8))
	if got := contiguousData[uint8](bytes); !slices.Equal(got, []uint8{2, 255, 44, 0, 0, 0, 160}) {
		t.Errorf("float64 → uint8 = %v", got)
	}
	bools := Must(x.AsType(Bool))
	if got := contiguousData[bool](bools); !slices.Equal(got, []bool{true, true, true, true, true, false, true}) {
		t.Errorf("float64 → bool = %v", got)
	}
	halves := Must(x.AsType(Float16))
	want := []uint16{0x4166, 0xbe00, 0x5cb2, 0x7e00, 0x7c00, 0x8000, 0x7c00}
	for i, h := range contiguousData[float16.Float16](halves) {
		if h.IsNaN() != (want[i] == 0x7e00) || !h.IsNaN() && h.Bits() != want[i] {
			t.Errorf("float64 → float16 element %d = %#04x, want %#04x", i, h.Bits(), want[i])
		}
	}
	c := Must(FromSlice([]complex128{complex(3, 4), complex(0, -2)}))
	if got := contiguousData[float32](Must(c.AsType(Float32))); !slices.Equal(got, []float32{3, 0}) {
		t.Errorf("complex128 → float32 = %v", got)
	}
	if got := contiguousData[bool](Must(c.AsType(Bool))); !slices.Equal(got, []bool{true, true}) {
		t.Errorf("complex128 → bool = %v", got)
	}
}

// TestAsTypeViews converts non-contiguous views: transposed, broadcast,
// reversed, offset, 0-d and empty.
func TestAsTypeViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, st := range []DType{Int16, Float32, Float64, BFloat16, Complex64} {
		x := randomBits(t, rng, st, 4, 6)
		views := map[string]*Tensor{
			"transpose": x.Transpose(),
			"broadcast": x.view([]int{3, 4, 6}, []int{0, 6, 1}, 0),
			"reversed":  x.view([]int{4, 6}, []int{-6, -1}, 23),
			"columns":   x.view([]int{4, 3}, []int{6, 2}, 1),
			"0-d":       x.view([]int{}, []int{}, 5),
			"empty":     x.view([]int{0, 6}, []int{6, 1}, 0),
			"unit dims": x.view([]int{1, 4, 1, 6}, []int{99, 6, 7, 1}, 0),
		}
		for name, v := range views {
			for _, dt := range []DType{Bool, Uint8, Int64, Float16, Float32, Complex128} {
				y, err := v.AsType(dt)
				if err != nil {
					t.Fatalf("%s %v → %v: %v", name, st, dt, err)
				}
				if !y.IsContiguous() || !slices.Equal(y.Shape(), v.Shape()) {
					t.Fatalf("%s %v → %v: shape %v strides %v", name, st, dt, y.shape, y.strides)
				}
				checkConverted(t, name+" "+st.String()+" → "+dt.String(), y, v)
			}
		}
	}
}

// TestAsTypeTiles converts transposing views large enough for the tiled
// walk, with sizes that are not multiples of the tile, batch dimensions
// and reversed strides, and checks every element.
func TestAsTypeTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, st := range []DType{Int32, Float16, Complex128} {
		m := randomBits(t, rng, st, 70, 45)
		b := randomBits(t, rng, st, 3, 40, 65)
		views := map[string]*Tensor{
			"transpose":       m.Transpose(),
			"batch transpose": Must(b.MT()),
			"permuted":        Must(b.Permute(2, 0, 1)),
			"reversed rows":   m.view([]int{45, 70}, []int{1, -45}, 69*45),
		}
		for name, v := range views {
			for _, dt := range []DType{st, Float32, Uint8, BFloat16} {
				d := Must(empty(dt, v.shape))
				p := iter.NewPlan(v.shape, byteStrides(d, d.shape), byteStrides(v, v.shape))
				if !p.Tiled([]int{dt.Size(), st.Size()}) && name != "permuted" {
					t.Errorf("%s: plan %v does not take the tiled walk", name, p.Shape())
				}
				y, err := v.AsType(dt)
				if err != nil {
					t.Fatal(err)
				}
				checkConverted(t, name+" "+st.String()+" → "+dt.String(), y, v)
			}
		}
	}
}

// TestAsTypeParallel converts tensors large enough to be shared between
// goroutines along each of copyInto's paths: contiguous, many strided
// runs, one long strided run, and tiles.
func TestAsTypeParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	n := iter.MinParallel
	x := randomBits(t, rng, Float32, 2*n)
	views := map[string]*Tensor{
		"contiguous":    x,
		"strided runs":  x.view([]int{n / 64, 64}, []int{128, 2}, 0),
		"one long run":  x.view([]int{n}, []int{-2}, 2*n-1),
		"transposed":    x.view([]int{512, n / 512}, []int{1, 512}, 0),
		"batched tiles": x.view([]int{4, 256, n / 1024}, []int{n / 4, 1, 256}, 0),
	}
	for name, v := range views {
		for _, dt := range []DType{Float64, Float16, Int32} {
			y, err := v.AsType(dt)
			if err != nil {
				t.Fatal(err)
			}
			checkConverted(t, name+" → "+dt.String(), y, v)
		}
	}
}

func TestAsTypeErrors(t *testing.T) {
	x := Must(FromSlice([]int32{1, 2}))
	if _, err := x.AsType(dtype.Invalid); !errors.Is(err, ErrDType) {
		t.Errorf("AsType(Invalid) error %v, want ErrDType", err)
	}
	if _, err := x.AsType(DType(200)); !errors.Is(err, ErrDType) {
		t.Errorf("AsType(200) error %v, want ErrDType", err)
	}
	var nilTensor *Tensor
	if _, err := nilTensor.AsType(Float32); !errors.Is(err, ErrValue) {
		t.Errorf("nil AsType error %v, want ErrValue", err)
	}
}

// TestCopyIntoStridedDestination writes into transposed and strided
// destinations and checks that untouched elements keep their values.
func TestCopyIntoStridedDestination(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	src := randomBits(t, rng, Int32, 5, 3)
	for _, dt := range []DType{Int8, Float32, Complex128, Float16} {
		base := Must(Zeros(dt, 3, 10))
		dst := base.view([]int{5, 3}, []int{2, 10}, 0) // every other column, transposed
		if err := copyInto(dst, src); err != nil {
			t.Fatal(err)
		}
		checkConverted(t, "strided dst "+dt.String(), dst, src)
		zero := make([]byte, dt.Size())
		walkIndex(base.shape, func(idx []int) {
			if idx[1]%2 == 1 && !bytes.Equal(unsafe.Slice((*byte)(addressOf(base, idx)), dt.Size()), zero) {
				t.Errorf("%v: element %v outside the destination view changed", dt, idx)
			}
		})
	}
}

// TestCopyIntoOverlap copies a reversed view of a tensor onto the tensor
// itself: the result must be as if the source were read first.
func TestCopyIntoOverlap(t *testing.T) {
	x := Must(FromSlice([]float32{1, 2, 3, 4, 5, 6}))
	rev := x.view([]int{6}, []int{-1}, 5)
	if err := copyInto(x, rev); err != nil {
		t.Fatal(err)
	}
	if got := contiguousData[float32](x); !slices.Equal(got, []float32{6, 5, 4, 3, 2, 1}) {
		t.Errorf("x = reversed(x) gave %v", got)
	}
	// Shifted by one: x[1:] = x[:-1].
	y := Must(FromSlice([]int64{1, 2, 3, 4, 5}))
	if err := copyInto(y.view([]int{4}, []int{1}, 1), y.view([]int{4}, []int{1}, 0)); err != nil {
		t.Fatal(err)
	}
	if got := contiguousData[int64](y); !slices.Equal(got, []int64{1, 1, 2, 3, 4}) {
		t.Errorf("y[1:] = y[:-1] gave %v", got)
	}
	// Onto itself: nothing changes.
	if err := copyInto(y, y.view(y.shape, y.strides, 0)); err != nil {
		t.Fatal(err)
	}
	if got := contiguousData[int64](y); !slices.Equal(got, []int64{1, 1, 2, 3, 4}) {
		t.Errorf("y = y gave %v", got)
	}
}

func TestCopyIntoShapeMismatch(t *testing.T) {
	a := Must(Zeros(Float32, 2, 3))
	b := Must(Zeros(Float32, 3, 2))
	if err := copyInto(a, b); !errors.Is(err, ErrShape) {
		t.Errorf("copyInto 2x3 ← 3x2 error %v, want ErrShape", err)
	}
}

func BenchmarkAsType(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ from, to DType }{
		{Int32, Float32}, {Float32, Float64}, {Float32, Float32}, {Float32, Float16}, {Float64, Int32},
	} {
		x := randomBits(b, rng, c.from, 512, 512)
		b.Run(c.from.String()+"_to_"+c.to.String(), func(b *testing.B) {
			b.SetBytes(int64(x.Size() * (c.from.Size() + c.to.Size())))
			for b.Loop() {
				Must(x.AsType(c.to))
			}
		})
		xt := x.Transpose()
		b.Run(c.from.String()+"_to_"+c.to.String()+"_transposed", func(b *testing.B) {
			b.SetBytes(int64(x.Size() * (c.from.Size() + c.to.Size())))
			for b.Loop() {
				Must(xt.AsType(c.to))
			}
		})
	}
}

// AsType truncates floats toward zero and wraps them into narrow integers
// (70000 is 4464 as int16 and 112 as uint8, -1.5 is 255 as uint8), rounds
// into float16 (70000 overflows to inf), and maps nonzero values to true.
func ExampleTensor_AsType() {
	x := Must(FromSlice([]float64{2.7, -1.5, 300.5, 70000}))
	fmt.Println(Must(x.AsType(Int16)))
	fmt.Println(Must(x.AsType(Uint8)))
	fmt.Println(Must(x.AsType(Float16)))
	fmt.Println(Must(x.AsType(Bool)))
	// Output:
	// Tensor([   2   -1  300 4464], dtype=int16, device=xpux:0)
	// Tensor([  2 255  44 112], dtype=uint8, device=xpux:0)
	// Tensor([  2.7  -1.5 300.5   inf], dtype=float16, device=xpux:0)
	// Tensor([ True  True  True  True], dtype=bool, device=xpux:0)
}

// BenchmarkAsTypeLarge converts 4M elements (16 MiB each way), fresh
// destination included, contiguous and transposed.
func BenchmarkAsTypeLarge(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randomBits(b, rng, Int32, 2048, 2048)
	xt := x.Transpose()
	for name, v := range map[string]*Tensor{"int32_to_float32": x, "int32_to_float32_transposed": xt} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(v.Size() * 8))
			for b.Loop() {
				Must(v.AsType(Float32))
			}
		})
	}
}
