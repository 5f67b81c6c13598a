package tensor

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/blocked"
	"github.com/tensor-go/tensor/internal/gemm"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// mmBothPaths runs f with the fast GEMM and with the plain blocked kernel.
// Fresh results are filled with garbage first (poisonProductTensors), so
// that an element a kernel leaves unwritten shows.
func mmBothPaths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, fast := range []bool{true, false} {
		name := "plain"
		if fast {
			name = "fast"
		}
		t.Run(name, func(t *testing.T) {
			oldFast, oldPoison := useFastMatmul, poisonProductTensors
			useFastMatmul, poisonProductTensors = fast, true
			defer func() { useFastMatmul, poisonProductTensors = oldFast, oldPoison }()
			f(t)
		})
	}
}

// ---- Building operands: random data in random layouts ----

// mmView returns a tensor of dtype dt and shape s whose storage is laid
// out at random: dimensions in a random memory order, steps of ±1 or ±2
// (stepped and reversed slices), and, where bcast allows, stride 0 along
// dimensions that are then broadcast. Every storage element, gaps included,
// holds a random value.
func mmView(rng *rand.Rand, dt dtype.DType, s []int, bcast []bool, gen func(*rand.Rand, dtype.DType) any) *Tensor {
	n := len(s)
	order := rng.Perm(n) // order[0] is the innermost dimension in memory
	steps := make([]int, n)
	for d := range steps {
		steps[d] = []int{1, 1, 2, -1, -2}[rng.IntN(5)]
		if bcast != nil && bcast[d] && rng.IntN(2) == 0 {
			steps[d] = 0
		}
	}
	strides := make([]int, n)
	offset, size := 0, 1
	for _, d := range order {
		if steps[d] == 0 {
			continue
		}
		abs := max(steps[d], -steps[d])
		strides[d] = steps[d] * size
		if steps[d] < 0 && s[d] > 0 {
			offset += (s[d] - 1) * abs * size
		}
		size *= max((s[d]-1)*abs+1, 1)
	}
	for _, d := range s {
		if d == 0 {
			size, offset = 0, 0
		}
	}
	p, _, err := alloc(dt, size, true)
	if err != nil {
		panic(err)
	}
	t := &Tensor{dtype: dt, shape: append([]int{}, s...), strides: strides, offset: offset, storage: p, n: size}
	for i := 0; i < size; i++ {
		mmSetRaw(t, i, gen(rng, dt))
	}
	return t
}

// mmSetRaw stores v (a float64, int64, uint64, bool or complex128) as storage
// element i of t, converted to t's dtype.
func mmSetRaw(t *Tensor, i int, v any) {
	switch t.dtype {
	case Bool:
		storageOf[bool](t)[i] = v.(bool)
	case Int8:
		storageOf[int8](t)[i] = int8(v.(int64))
	case Int16:
		storageOf[int16](t)[i] = int16(v.(int64))
	case Int32:
		storageOf[int32](t)[i] = int32(v.(int64))
	case Int64:
		storageOf[int64](t)[i] = v.(int64)
	case Uint8:
		storageOf[uint8](t)[i] = uint8(v.(int64))
	case Uint16:
		storageOf[uint16](t)[i] = uint16(v.(int64))
	case Uint32:
		storageOf[uint32](t)[i] = uint32(v.(int64))
	case Uint64:
		storageOf[uint64](t)[i] = uint64(v.(int64))
	case Float16:
		storageOf[float16.Float16](t)[i] = float16.Fromfloat32(float32(v.(float64)))
	case BFloat16:
		storageOf[bfloat16.BFloat16](t)[i] = bfloat16.FromFloat64(v.(float64))
	case Float32:
		storageOf[float32](t)[i] = float32(v.(float64))
	case Float64:
		storageOf[float64](t)[i] = v.(float64)
	case Complex64:
		storageOf[complex64](t)[i] = complex64(v.(complex128))
	case Complex128:
		storageOf[complex128](t)[i] = v.(complex128)
	}
}

// mmGen returns a generator of values for operands whose product has
// dtype res: the full bit range for integer results (so that wrapping
// shows), small integers when integers meet floats (exact in every float
// type, so conversions do not round), normal floats otherwise.
func mmGen(res dtype.DType) func(*rand.Rand, dtype.DType) any {
	return func(rng *rand.Rand, dt dtype.DType) any {
		switch {
		case dt == Bool:
			return rng.IntN(3) == 0
		case dt.IsInteger() && (res.IsInteger() || res == Bool):
			return int64(rng.Uint64())
		case dt.IsInteger():
			if dt.IsSigned() {
				return int64(rng.IntN(17) - 8)
			}
			return int64(rng.IntN(17))
		case dt.IsFloat():
			return rng.NormFloat64()
		default:
			return complex(rng.NormFloat64(), rng.NormFloat64())
		}
	}
}

// ---- Reading values back, independently of the code under test ----

// mmOffsets returns the storage index of every element of t in row-major
// order of its shape.
func mmOffsets(t *Tensor) []int {
	n := shape.MustSize(t.shape)
	offs := make([]int, 0, n)
	idx := make([]int, len(t.shape))
	for range n {
		o := t.offset
		for d, i := range idx {
			o += i * t.strides[d]
		}
		offs = append(offs, o)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < t.shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return offs
}

// mmValue is one element read exactly: integers as their two's complement
// bits widened to int64, everything else as complex128.
type mmValue struct {
	i int64
	c complex128
	b bool
}

func mmRead(t *Tensor) []mmValue {
	offs := mmOffsets(t)
	out := make([]mmValue, len(offs))
	for k, o := range offs {
		var v mmValue
		switch t.dtype {
		case Bool:
			v.b = storageOf[bool](t)[o]
		case Int8:
			v.i = int64(storageOf[int8](t)[o])
		case Int16:
			v.i = int64(storageOf[int16](t)[o])
		case Int32:
			v.i = int64(storageOf[int32](t)[o])
		case Int64:
			v.i = storageOf[int64](t)[o]
		case Uint8:
			v.i = int64(storageOf[uint8](t)[o])
		case Uint16:
			v.i = int64(storageOf[uint16](t)[o])
		case Uint32:
			v.i = int64(storageOf[uint32](t)[o])
		case Uint64:
			v.i = int64(storageOf[uint64](t)[o])
		case Float16:
			v.c = complex(float64(storageOf[float16.Float16](t)[o].Float32()), 0)
		case BFloat16:
			v.c = complex(storageOf[bfloat16.BFloat16](t)[o].Float64(), 0)
		case Float32:
			v.c = complex(float64(storageOf[float32](t)[o]), 0)
		case Float64:
			v.c = complex(storageOf[float64](t)[o], 0)
		case Complex64:
			v.c = complex128(storageOf[complex64](t)[o])
		case Complex128:
			v.c = storageOf[complex128](t)[o]
		}
		if t.dtype.IsInteger() || t.dtype == Bool {
			if t.dtype == Bool && v.b {
				v.i = 1
			}
			v.c = complex(float64(v.i), 0)
		}
		out[k] = v
	}
	return out
}

// mmWrap truncates x to the width and signedness of the integer dtype dt.
func mmWrap(x int64, dt dtype.DType) int64 {
	bits := uint(dt.Bits())
	if bits == 64 {
		return x
	}
	x &= 1<<bits - 1
	if dt.IsSigned() && x>>(bits-1) != 0 {
		x -= 1 << bits
	}
	return x
}

// mmRoundoff is half the machine epsilon of a float or complex dtype.
func mmRoundoff(dt dtype.DType) float64 {
	switch dt {
	case Float16:
		return 0x1p-11
	case BFloat16:
		return 0x1p-8
	case Float32, Complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// mmRef is the naive product of a and b, element by element from the
// definition: pad 1-D operands, broadcast batch indices by hand, and sum in
// int64 (wrapping, then truncated to the result width), complex128, or
// logical OR. It also returns, per result element, Σ|a||b|, the scale of the
// float rounding error.
func mmRef(a, b *Tensor, res dtype.DType) (vals []mmValue, scale []float64, outShape []int) {
	as, bs := a.Shape(), b.Shape()
	if len(as) == 1 {
		as = []int{1, as[0]}
	}
	if len(bs) == 1 {
		bs = []int{bs[0], 1}
	}
	av, bv := mmRead(a), mmRead(b)
	m, k, n := as[len(as)-2], as[len(as)-1], bs[len(bs)-1]
	ab, bb := as[:len(as)-2], bs[:len(bs)-2]
	nb := max(len(ab), len(bb))
	batch := make([]int, nb)
	for i := range batch {
		batch[i] = max(mmDimR(ab, nb-i), mmDimR(bb, nb-i))
	}
	outShape = append([]int{}, batch...)
	if a.NDim() > 1 {
		outShape = append(outShape, m)
	}
	if b.NDim() > 1 {
		outShape = append(outShape, n)
	}
	// index of batch element (row-major over batch) into an operand's own
	// batch, with broadcasting.
	ownIndex := func(bi int, own []int) int {
		idx, mul := 0, 1
		for d := nb - 1; d >= 0; d-- {
			i := bi % batch[d]
			bi /= batch[d]
			od := d - (nb - len(own))
			if od < 0 {
				continue
			}
			if own[od] != 1 {
				idx += i * mul
			}
			mul *= own[od]
		}
		return idx
	}
	count := shape.MustSize(batch)
	for bi := range count {
		ao, bo := ownIndex(bi, ab)*m*k, ownIndex(bi, bb)*k*n
		for i := range m {
			for j := range n {
				var v mmValue
				var sc float64
				for p := range k {
					x, y := av[ao+i*k+p], bv[bo+p*n+j]
					switch {
					case res == Bool:
						v.b = v.b || (x.b && y.b)
					case res.IsInteger():
						v.i += x.i * y.i
					default:
						v.c += x.c * y.c
						sc += cmplx.Abs(x.c) * cmplx.Abs(y.c)
					}
				}
				if res.IsInteger() {
					v.i = mmWrap(v.i, res)
				}
				vals = append(vals, v)
				scale = append(scale, sc)
			}
		}
	}
	return vals, scale, outShape
}

func mmDimR(s []int, i int) int {
	if i > len(s) {
		return 1
	}
	return s[len(s)-i]
}

// mmCheck compares got with the reference product of a and b.
// Integer and bool results must be exact. A float result may differ from
// the exact sum by at most
//
//	(2K+4)·u_acc·Σ|a||b| + u_res·|exact|
//
// where u_acc is the unit roundoff of the accumulation type (float32 for
// float16 and bfloat16) and u_res that of the result type; the usual
// bound for a recursive sum is K·u_acc·Σ|a||b|, the factor 2 and the +4
// leave room for complex arithmetic and blocked summation orders.
func mmCheck(t *testing.T, got, a, b *Tensor) {
	t.Helper()
	res := got.dtype
	want, scale, wantShape := mmRef(a, b, res)
	if !shape.Equal(got.shape, wantShape) {
		t.Fatalf("%v@%v: shape %v, want %v", a.shape, b.shape, got.shape, wantShape)
	}
	gv := mmRead(got)
	k := 0
	if len(a.shape) > 0 {
		k = a.shape[len(a.shape)-1]
	}
	uacc := mmRoundoff(dtype.Accumulator(res))
	if res == Complex64 {
		uacc = mmRoundoff(Float32)
	}
	for i := range want {
		switch {
		case res == Bool:
			if gv[i].b != want[i].b {
				t.Fatalf("%v %v@%v %v: element %d = %v, want %v", a.dtype, a.shape, b.dtype, b.shape, i, gv[i].b, want[i].b)
			}
		case res.IsInteger():
			if gv[i].i != want[i].i {
				t.Fatalf("%v %v@%v %v -> %v: element %d = %d, want %d", a.dtype, a.shape, b.dtype, b.shape, res, i, gv[i].i, want[i].i)
			}
		default:
			tol := float64(2*k+4)*uacc*scale[i] + mmRoundoff(res)*cmplx.Abs(want[i].c)
			if d := cmplx.Abs(gv[i].c - want[i].c); !(d <= tol) {
				t.Fatalf("%v %v@%v %v -> %v: element %d = %v, want %v (error %g > %g)", a.dtype, a.shape, b.dtype, b.shape, res, i, gv[i].c, want[i].c, d, tol)
			}
		}
	}
}

// mmRandomPair returns operand shapes of ranks ra and rb (1..4) that
// multiply, with random batch dimensions that broadcast (some 1s, some
// missing), and masks of the batch dimensions that may be stride 0.
func mmRandomPair(rng *rand.Rand, ra, rb int) (as, bs []int, abc, bbc []bool) {
	m, k, n := rng.IntN(6), rng.IntN(7), rng.IntN(6)
	if rng.IntN(4) != 0 { // mostly nonempty
		m, k, n = m+1, k+1, n+1
	}
	nb := max(ra-2, rb-2, 0)
	batch := make([]int, nb)
	for i := range batch {
		batch[i] = 1 + rng.IntN(3)
	}
	// Any dimension may be a stride-0 broadcast view; the kernels read
	// every stride.
	mk := func(r int, inner ...int) ([]int, []bool) {
		bc := make([]bool, r)
		for i := range bc {
			bc[i] = rng.IntN(4) == 0
		}
		if r == 1 {
			return []int{k}, bc
		}
		s := append([]int{}, batch[nb-(r-2):]...)
		for i := range s {
			if rng.IntN(3) == 0 {
				s[i] = 1 // broadcast against the other operand
			}
			bc[i] = true
		}
		return append(s, inner...), bc
	}
	as, abc = mk(ra, m, k)
	bs, bbc = mk(rb, k, n)
	return as, bs, abc, bbc
}

// TestMatmulRanks multiplies every rank combination 1-D..4-D, in random
// layouts, and checks against the reference.
func TestMatmulRanks(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		for ra := 1; ra <= 4; ra++ {
			for rb := 1; rb <= 4; rb++ {
				for _, dt := range []dtype.DType{Float32, Float64, Int32, Int64, Complex128} {
					for range 4 {
						as, bs, abc, bbc := mmRandomPair(rng, ra, rb)
						gen := mmGen(dt)
						a := mmView(rng, dt, as, abc, gen)
						b := mmView(rng, dt, bs, bbc, gen)
						got, err := Matmul(a, b)
						if err != nil {
							t.Fatalf("Matmul(%v, %v): %v", as, bs, err)
						}
						mmCheck(t, got, a, b)
					}
				}
			}
		}
	})
}

// TestMatmulDTypePairs multiplies every pair of dtypes that promote, with
// the result dtype and values checked against the reference.
func TestMatmulDTypePairs(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for _, da := range dtype.All {
			for _, db := range dtype.All {
				res, err := dtype.Promote(da, db)
				if err != nil {
					continue
				}
				for range 2 {
					ra, rb := 1+rng.IntN(3), 1+rng.IntN(3)
					as, bs, abc, bbc := mmRandomPair(rng, ra, rb)
					a := mmView(rng, da, as, abc, mmGen(res))
					b := mmView(rng, db, bs, bbc, mmGen(res))
					got, err := Matmul(a, b)
					if err != nil {
						t.Fatalf("Matmul(%v %v, %v %v): %v", da, as, db, bs, err)
					}
					if got.dtype != res {
						t.Fatalf("Matmul(%v, %v) dtype %v, want %v", da, db, got.dtype, res)
					}
					mmCheck(t, got, a, b)
				}
			}
		}
	})
}

// TestMatmulBatches covers the batch paths: many tiny products (batched
// kernels, goroutines), broadcast batches, and contiguous batches against
// one matrix, which fold into a single tall product.
func TestMatmulBatches(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(23, 24))
		for _, dt := range []dtype.DType{Float32, Float64, Int64, Uint32, BFloat16, Complex128, Bool} {
			gen := mmGen(dt)
			a := mmView(rng, dt, []int{64, 1, 9, 8}, []bool{true, true, false, false}, gen)
			b := mmView(rng, dt, []int{3, 8, 7}, []bool{true, false, false}, gen)
			got, err := Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			mmCheck(t, got, a, b)

			a, _ = mmView(rng, dt, []int{5, 6, 40}, nil, gen).AsType(dt) // contiguous
			b = mmView(rng, dt, []int{40, 3}, nil, gen)
			got, err = Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			mmCheck(t, got, a, b)
			v := mmView(rng, dt, []int{40}, nil, gen)
			got, err = Matmul(a, v)
			if err != nil {
				t.Fatal(err)
			}
			mmCheck(t, got, a, v)
		}
	})
}

// TestMatmulLarger crosses the kernels' block edges with moderate sizes.
func TestMatmulLarger(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(15, 16))
		for _, dims := range [][3]int{{67, 300, 33}, {1, 513, 70}, {130, 9, 1}, {17, 17, 17}} {
			for _, dt := range []dtype.DType{Float32, Float64, Int32, Uint8, Float16, Complex64} {
				m, k, n := dims[0], dims[1], dims[2]
				a := mmView(rng, dt, []int{2, m, k}, []bool{true, false, false}, mmGen(dt))
				b := mmView(rng, dt, []int{k, n}, nil, mmGen(dt))
				got, err := Matmul(a, b)
				if err != nil {
					t.Fatal(err)
				}
				mmCheck(t, got, a, b)
			}
		}
	})
}

func mmSlice[T Element](t *testing.T, data []T, s ...int) *Tensor {
	t.Helper()
	x, err := FromSlice(data, s...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestMatmulSpecialValues(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		inf, negZero := math.Inf(1), math.Copysign(0, -1)
		for _, dt := range []dtype.DType{Float16, BFloat16, Float32, Float64, Complex64, Complex128} {
			// No zero skipping: [[1, 0]]@[[2], [inf]] is [[nan]].
			a, _ := mmSlice(t, []float64{1, 0}, 1, 2).AsType(dt)
			b, _ := mmSlice(t, []float64{2, inf}, 2, 1).AsType(dt)
			c, err := Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if v := mmRead(c)[0].c; !cmplx.IsNaN(v) {
				t.Errorf("%v: [[1 0]]@[[2] [inf]] = %v, want NaN", dt, v)
			}
			// Sums start at +0: [-0]·[1] is +0.
			a, _ = mmSlice(t, []float64{negZero}).AsType(dt)
			b, _ = mmSlice(t, []float64{1}).AsType(dt)
			c, err = Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if v := mmRead(c)[0].c; real(v) != 0 || math.Signbit(real(v)) || math.Signbit(imag(v)) {
				t.Errorf("%v: [-0]·[1] = %v, want +0", dt, v)
			}
			if c.NDim() != 0 {
				t.Errorf("%v: dot product has shape %v, want ()", dt, c.shape)
			}
		}
	})
}

func TestMatmulIntegerWrapsAndBool(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		// int8: 100·3 + 100·3 = 600 wraps to 600-512 = 88.
		c, err := Matmul(mmSlice(t, []int8{100, 100}), mmSlice(t, []int8{3, 3}))
		if err != nil || storageOf[int8](c)[0] != 88 {
			t.Errorf("int8 [100 100]·[3 3] = %v, %v; want 88", c, err)
		}
		// int32: 2^30·4 wraps to 0.
		c, err = Matmul(mmSlice(t, []int32{1 << 30}, 1, 1), mmSlice(t, []int32{4}, 1, 1))
		if err != nil || storageOf[int32](c)[0] != 0 {
			t.Errorf("int32 2^30·4 = %v, %v; want 0", c, err)
		}
		// uint64 through the signed kernel: (2^64-1)·(2^64-1) = 1 mod 2^64.
		c, err = Matmul(mmSlice(t, []uint64{math.MaxUint64}), mmSlice(t, []uint64{math.MaxUint64}))
		if err != nil || storageOf[uint64](c)[0] != 1 {
			t.Errorf("uint64 max·max = %v, %v; want 1", c, err)
		}
		// bool: OR of ANDs, and never a count (256 trues stay true).
		ones := make([]bool, 256)
		for i := range ones {
			ones[i] = true
		}
		c, err = Matmul(mmSlice(t, ones, 1, 256), mmSlice(t, ones, 256, 1))
		if err != nil || c.dtype != Bool || !storageOf[bool](c)[0] {
			t.Errorf("bool 256 trues = %v, %v; want true", c, err)
		}
		c, err = Matmul(mmSlice(t, []bool{true, false}, 1, 2), mmSlice(t, []bool{false, true}, 2, 1))
		if err != nil || storageOf[bool](c)[0] {
			t.Errorf("bool [t f]·[f t] = %v, %v; want false", c, err)
		}
	})
}

func TestMatmulEmpty(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		for _, tc := range []struct{ a, b, want []int }{
			{[]int{3, 0}, []int{0, 4}, []int{3, 4}}, // K = 0: zeros
			{[]int{0}, []int{0}, []int{}},           // empty dot: 0
			{[]int{2, 0, 5}, []int{5, 4}, []int{2, 0, 4}},
			{[]int{0, 2, 5}, []int{5, 4}, []int{0, 2, 4}},
			{[]int{2, 3, 5}, []int{5, 0}, []int{2, 3, 0}},
			{[]int{2, 3, 0}, []int{1, 0, 2}, []int{2, 3, 2}},
		} {
			for _, dt := range []dtype.DType{Float32, Int64, Complex64, Float16, Bool} {
				a, _ := Zeros(dt, tc.a...)
				b, _ := Zeros(dt, tc.b...)
				c, err := Matmul(a, b)
				if err != nil {
					t.Fatalf("%v: Matmul(%v, %v): %v", dt, tc.a, tc.b, err)
				}
				if !shape.Equal(c.shape, tc.want) {
					t.Errorf("%v: Matmul(%v, %v) shape %v, want %v", dt, tc.a, tc.b, c.shape, tc.want)
				}
				// Into an output full of NaN (or true): old contents never leak.
				out := mmFilled(t, dt, tc.want)
				if err := MatmulInto(out, a, b); err != nil {
					t.Fatal(err)
				}
				for i, v := range mmRead(out) {
					if v.c != 0 || v.b || math.Signbit(real(v.c)) {
						t.Errorf("%v: MatmulInto(%v, %v) element %d = %v, want 0", dt, tc.a, tc.b, i, v)
					}
				}
			}
		}
	})
}

// mmFilled returns a tensor of shape s whose elements are NaN (true, or
// -1 for integers), as garbage an into-form must not leak.
func mmFilled(t *testing.T, dt dtype.DType, s []int) *Tensor {
	t.Helper()
	out, err := empty(dt, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out.n {
		switch {
		case dt == Bool:
			mmSetRaw(out, i, true)
		case dt.IsInteger():
			mmSetRaw(out, i, int64(-1))
		case dt.IsComplex():
			mmSetRaw(out, i, cmplx.NaN())
		default:
			mmSetRaw(out, i, math.NaN())
		}
	}
	return out
}

func TestMatmulInto(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(17, 18))
		for ra := 1; ra <= 3; ra++ {
			for rb := 1; rb <= 3; rb++ {
				for _, dt := range []dtype.DType{Float64, Float32, Float16, Int8, Uint64, Complex64, Bool} {
					as, bs, abc, bbc := mmRandomPair(rng, ra, rb)
					a := mmView(rng, dt, as, abc, mmGen(dt))
					b := mmView(rng, dt, bs, bbc, mmGen(dt))
					want, err := Matmul(a, b)
					if err != nil {
						t.Fatal(err)
					}
					out := mmGuardedView(rng, dt, want.shape)
					if err := MatmulInto(out, a, b); err != nil {
						t.Fatal(err)
					}
					mmAssertSame(t, out, want)
					mmAssertGuards(t, out)
				}
			}
		}
	})
}

// TestMatmulOverwritesFreshResults checks that results written over
// poisoned storage are bit for bit those written over zeroed storage, on
// every path that takes a fresh tensor (products, widened and converted
// operands, half-precision accumulators, aliased into-forms, K = 0): every
// kernel writes every element it owns.
func TestMatmulOverwritesFreshResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, tc := range []struct {
		da, db dtype.DType
		as, bs []int
	}{
		{Float32, Float32, []int{7, 9}, []int{9, 5}},
		{Float64, Int32, []int{3, 4, 6}, []int{6}},
		{Int8, Int8, []int{5, 6}, []int{2, 6, 3}},
		{Float16, Float16, []int{4, 5}, []int{5, 4}},
		{Complex64, Float32, []int{2, 3, 4}, []int{2, 4, 3}},
		{Float32, Float32, []int{3, 0}, []int{0, 4}},
	} {
		a := mmView(rng, tc.da, tc.as, nil, mmGen(tc.da))
		b := mmView(rng, tc.db, tc.bs, nil, mmGen(tc.db))
		var results [2]*Tensor
		for i, poison := range []bool{false, true} {
			poisonProductTensors = poison
			got, err := Matmul(a, b)
			poisonProductTensors = false
			if err != nil {
				t.Fatal(err)
			}
			results[i] = got
		}
		mmAssertSame(t, results[1], results[0])
	}
	// An into-form whose output aliases an operand goes through a temporary.
	x := mmView(rng, Float64, []int{6, 6}, nil, mmGen(Float64))
	want, err := Matmul(x, x)
	if err != nil {
		t.Fatal(err)
	}
	poisonProductTensors = true
	defer func() { poisonProductTensors = false }()
	if err := MatmulInto(x, x, x); err != nil {
		t.Fatal(err)
	}
	mmAssertSame(t, x, want)
}

// TestMatmulBatchOffsetsReuse alternates batches of the same count but
// different layouts, so that a pooled offset buffer filled for one layout
// is handed to the other, and checks every result.
func TestMatmulBatchOffsetsReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	gen := mmGen(Float64)
	ab := mmView(rng, Float64, []int{4, 6, 3, 5}, nil, gen)
	bb := mmView(rng, Float64, []int{4, 6, 5, 2}, nil, gen)
	swapped, err := ab.Permute(1, 0, 2, 3) // batch 6×4, strides swapped
	if err != nil {
		t.Fatal(err)
	}
	bs, err := bb.Permute(1, 0, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	shared := mmView(rng, Float64, []int{5, 2}, nil, gen) // 24 products, B broadcast
	flat := mmView(rng, Float64, []int{24, 3, 5}, nil, gen)
	for range 3 {
		for _, pair := range [][2]*Tensor{{ab, bb}, {swapped, bs}, {ab, shared}, {flat, shared}, {swapped, shared}} {
			got, err := Matmul(pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			mmCheck(t, got, pair[0], pair[1])
		}
	}
}

// TestMatmulIntoAllocs checks that the layer above package gemm allocates
// nothing when MatmulInto multiplies contiguous operands of the result
// dtype (any allocation is gemm's own, measured on the same call), and that
// Matmul adds only the result tensor.
func TestMatmulIntoAllocs(t *testing.T) {
	if mmRaceEnabled {
		t.Skip("allocation counts vary under the race detector")
	}
	if !useFastMatmul {
		t.Skip("the allocation bound is the fast path's; -slowpaths switched it off")
	}
	for _, tc := range []struct {
		dt     dtype.DType
		as, bs []int
	}{
		{Float32, []int{64, 64}, []int{64, 64}},
		{Float64, []int{33, 17}, []int{17, 5}},
		{Int32, []int{8}, []int{8, 8}},
		{Uint32, []int{5, 7}, []int{7}},
		{Int64, []int{9}, []int{9}},
		{Uint64, []int{4, 8, 8}, []int{8, 8}}, // folded into one product
		{Float32, []int{16, 8, 8}, []int{16, 8, 8}},
		{Float64, []int{3, 8, 5}, []int{5, 4}},
		{Float32, []int{6}, []int{2, 3, 6, 2}},
		{Int32, []int{2, 3, 4, 5}, []int{5}},
	} {
		t.Run(fmt.Sprint(tc.dt, tc.as, tc.bs), func(t *testing.T) {
			a, b := mmFilled(t, tc.dt, tc.as), mmFilled(t, tc.dt, tc.bs)
			out, err := Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			into := testing.AllocsPerRun(50, func() {
				if err := MatmulInto(out, a, b); err != nil {
					t.Fatal(err)
				}
			})
			fresh := testing.AllocsPerRun(50, func() {
				if _, err := Matmul(a, b); err != nil {
					t.Fatal(err)
				}
			})
			own := mmGEMMAllocs(t, a, b, out)
			if into != own {
				t.Errorf("MatmulInto makes %v allocations, gemm alone %v", into, own)
			}
			// The tensor with its shape and strides (one allocation, with
			// the storage of a single element), and its storage unless it
			// is inline or package storage recycled a buffer.
			tensor := 1.0
			if fresh != own+tensor && fresh != own+tensor+1 {
				t.Errorf("Matmul makes %v allocations, gemm alone %v", fresh, own)
			}
		})
	}
}

// mmGEMMAllocs returns the allocations of the package gemm calls that
// MatmulInto(out, a, b) makes, with the same arguments.
func mmGEMMAllocs(t *testing.T, a, b, out *Tensor) float64 {
	p, err := planMatmul(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := p.stridedLayout(a, b, out)
	switch p.dtype {
	case Float32:
		return mmGEMMAllocsOf[float32](&l, a, b, out)
	case Float64:
		return mmGEMMAllocsOf[float64](&l, a, b, out)
	case Int32, Uint32:
		return mmGEMMAllocsOf[int32](&l, a, b, out)
	}
	return mmGEMMAllocsOf[int64](&l, a, b, out)
}

func mmGEMMAllocsOf[T gemm.Elem](l *batchLayout, a, b, c *Tensor) float64 {
	x, y, z := gemm.Matrix[T](view[T](l.a, a)), gemm.Matrix[T](view[T](l.b, b)), gemm.Matrix[T](view[T](l.c, c))
	return testing.AllocsPerRun(50, func() { gemmMul(l, x, y, z, gemm.Options{}) })
}

// mmGuardedView returns a view of shape s in a random layout (stepped,
// reversed, transposed) inside storage with a margin on both sides, every
// storage element holding garbage (NaN, -1 or true).
func mmGuardedView(rng *rand.Rand, dt dtype.DType, s []int) *Tensor {
	const margin = 3
	v := mmView(rng, dt, s, nil, mmGen(dt))
	n := v.n + 2*margin
	p, _, err := alloc(dt, n, true)
	if err != nil {
		panic(err)
	}
	out := &Tensor{dtype: dt, shape: v.shape, strides: v.strides, offset: v.offset + margin, storage: p, n: n}
	for i := range n {
		switch {
		case dt == Bool:
			mmSetRaw(out, i, true)
		case dt.IsInteger():
			mmSetRaw(out, i, int64(-1))
		case dt.IsComplex():
			mmSetRaw(out, i, cmplx.NaN())
		default:
			mmSetRaw(out, i, math.NaN())
		}
	}
	return out
}

// mmAssertGuards checks that every storage element of out outside its view
// still holds the garbage mmGuardedView put there.
func mmAssertGuards(t *testing.T, out *Tensor) {
	t.Helper()
	inView := make(map[int]bool)
	for _, o := range mmOffsets(out) {
		inView[o] = true
	}
	all := mmRead(&Tensor{dtype: out.dtype, shape: []int{out.n}, strides: []int{1}, storage: out.storage, n: out.n})
	for i, v := range all {
		if inView[i] {
			continue
		}
		if !(v.b || v.i == -1 || cmplx.IsNaN(v.c)) {
			t.Fatalf("%v output %v: storage element %d outside the view was written: %v", out.dtype, out.shape, i, v)
		}
	}
}

func mmAssertSame(t *testing.T, got, want *Tensor) {
	t.Helper()
	g, w := mmRead(got), mmRead(want)
	if !shape.Equal(got.shape, want.shape) || len(g) != len(w) {
		t.Fatalf("shape %v, want %v", got.shape, want.shape)
	}
	for i := range g {
		if g[i] != w[i] && !(cmplx.IsNaN(g[i].c) && cmplx.IsNaN(w[i].c)) {
			t.Fatalf("element %d = %v, want %v", i, g[i], w[i])
		}
	}
}

// TestMatmulIntoAliased writes a product over one of its own operands: the
// result must be as if computed into a temporary.
func TestMatmulIntoAliased(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(19, 20))
		for _, dt := range []dtype.DType{Float32, Int64, Complex128} {
			a := mmView(rng, dt, []int{2, 6, 6}, nil, mmGen(dt))
			b := mmView(rng, dt, []int{6, 6}, nil, mmGen(dt))
			want, err := Matmul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if err := MatmulInto(a, a, b); err != nil {
				t.Fatal(err)
			}
			mmAssertSame(t, a, want)
			// The output is the second operand, seen transposed.
			c := mmView(rng, dt, []int{6, 6}, nil, mmGen(dt))
			bt := &Tensor{dtype: b.dtype, shape: []int{6, 6}, strides: []int{b.strides[1], b.strides[0]}, offset: b.offset, storage: b.storage, n: b.n}
			want, _ = Matmul(c, bt)
			if err := MatmulInto(b, c, bt); err != nil {
				t.Fatal(err)
			}
			mmAssertSame(t, b, want)
		}
	})
}

func TestMatmulErrors(t *testing.T) {
	f32 := func(s ...int) *Tensor { x, _ := Zeros(Float32, s...); return x }
	scalar, _ := empty(Float32, nil)
	u64, _ := Zeros(Uint64, 2, 2)
	i8, _ := Zeros(Int8, 2, 2)
	tests := []struct {
		name  string
		run   func() error
		class error
		want  string
	}{
		{"inner", func() error { _, err := Matmul(f32(2, 3), f32(4, 5)); return err }, ErrShape,
			"tensor: matmul: shapes (2, 3) and (4, 5): inner sizes 3 and 4 differ"},
		{"0-d", func() error { _, err := Matmul(scalar, f32(3)); return err }, ErrShape, "() and (3,)"},
		{"batch", func() error { _, err := Matmul(f32(2, 2, 3), f32(3, 3, 4)); return err }, ErrShape, "(2, 2, 3) and (3, 3, 4)"},
		{"dot", func() error { _, err := Matmul(f32(3), f32(4)); return err }, ErrShape, "inner sizes 3 and 4"},
		{"promote", func() error { _, err := Matmul(u64, i8); return err }, ErrDType, "uint64 and int8"},
		{"nil", func() error { _, err := Matmul(nil, f32(3)); return err }, ErrValue, "nil"},
		{"precision", func() error { _, err := Matmul(f32(2, 2), f32(2, 2), WithPrecision(7)); return err }, ErrValue, "precision"},
		{"into shape", func() error { return MatmulInto(f32(2, 3), f32(2, 2), f32(2, 2)) }, ErrShape, "output shape (2, 3)"},
		{"into resize", func() error { return MatmulInto(f32(4), f32(2, 2), f32(2, 2)) }, ErrShape, "(2, 2)"},
		{"into dtype", func() error { return MatmulInto(f32(2, 2), i8, i8) }, ErrDType, "output dtype float32"},
		{"into nil", func() error { return MatmulInto(nil, f32(2, 2), f32(2, 2)) }, ErrValue, "nil"},
		{"into broadcast", func() error {
			out := &Tensor{dtype: Float32, shape: []int{2, 2}, strides: []int{0, 1}, storage: f32(2).storage, n: 2}
			return MatmulInto(out, f32(2, 2), f32(2, 2))
		}, ErrLayout, "overlap"},
		{"set precision", func() error { return SetMatmulPrecision(-1) }, ErrValue, "precision"},
	}
	for _, tc := range tests {
		err := tc.run()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !errors.Is(err, tc.class) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.class)
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "tensor: ") {
			t.Errorf("%s: message %q lacks %q", tc.name, err, tc.want)
		}
	}
}

// mmTF32Copy returns a float32 tensor with every element of x rounded to TF32.
func mmTF32Copy(t *testing.T, x *Tensor) *Tensor {
	c, err := x.AsType(Float32) // a contiguous copy
	if err != nil {
		t.Fatal(err)
	}
	if c.storage == x.storage {
		t.Fatal("AsType to the same dtype did not copy")
	}
	s := storageOf[float32](c)
	for i, v := range s {
		s[i] = blocked.RoundTF32(v)
	}
	return c
}

func TestMatmulTF32(t *testing.T) {
	mmBothPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 22))
		gen := mmGen(Float32)
		a := mmView(rng, Float32, []int{3, 20, 70}, nil, gen)
		b := mmView(rng, Float32, []int{70, 30}, nil, gen)
		exact, err := Matmul(a, b)
		if err != nil {
			t.Fatal(err)
		}
		rounded, err := Matmul(mmTF32Copy(t, a), mmTF32Copy(t, b))
		if err != nil {
			t.Fatal(err)
		}
		perCall, err := Matmul(a, b, WithPrecision(TF32))
		if err != nil {
			t.Fatal(err)
		}
		mmAssertBits(t, "per-call TF32", perCall, rounded)

		old := MatmulPrecision()
		defer SetMatmulPrecision(old)
		if err := SetMatmulPrecision(TF32); err != nil {
			t.Fatal(err)
		}
		global, _ := Matmul(a, b)
		mmAssertBits(t, "process-wide TF32", global, rounded)
		override, _ := Matmul(a, b, WithPrecision(Highest))
		mmAssertBits(t, "Highest overriding TF32", override, exact)
		SetMatmulPrecision(Highest)
		def, _ := Matmul(a, b)
		mmAssertBits(t, "default", def, exact)

		// TF32 does change float32 results, and nothing else.
		if mmBitsEqual(exact, rounded) {
			t.Error("TF32 rounding changed no element")
		}
		a64, _ := a.AsType(Float64)
		b64, _ := b.AsType(Float64)
		x, _ := Matmul(a64, b64)
		y, _ := Matmul(a64, b64, WithPrecision(TF32))
		mmAssertBits(t, "float64 under TF32", y, x)
		c64a, _ := a.AsType(Complex64)
		c64b, _ := b.AsType(Complex64)
		x, _ = Matmul(c64a, c64b)
		y, _ = Matmul(c64a, c64b, WithPrecision(TF32))
		mmAssertSame(t, y, x)
	})
}

func mmBitsEqual(x, y *Tensor) bool {
	xs, ys := contiguousData[float32](x), contiguousData[float32](y)
	for i := range xs {
		if math.Float32bits(xs[i]) != math.Float32bits(ys[i]) {
			return false
		}
	}
	return true
}

func mmAssertBits(t *testing.T, what string, got, want *Tensor) {
	t.Helper()
	g, w := mmRead(got), mmRead(want)
	for i := range g {
		if math.Float64bits(real(g[i].c)) != math.Float64bits(real(w[i].c)) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, g[i].c, w[i].c)
		}
	}
}

// TestMatmulConcurrentPrecision changes the process-wide precision while
// other goroutines multiply; run with -race.
func TestMatmulConcurrentPrecision(t *testing.T) {
	old := MatmulPrecision()
	defer SetMatmulPrecision(old)
	a, _ := Zeros(Float32, 8, 8)
	done := make(chan error)
	for range 2 {
		go func() {
			var err error
			for range 50 {
				if _, e := Matmul(a, a); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for i := range 100 {
		SetMatmulPrecision(Precision(i % 2))
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestPrecisionString(t *testing.T) {
	for p, want := range map[Precision]string{Highest: "highest", TF32: "tf32", 5: "Precision(5)"} {
		if got := fmt.Sprint(p); got != want {
			t.Errorf("Precision(%d) prints %q, want %q", int(p), got, want)
		}
	}
}

// mmWorkloads are the matmul/ workloads of the benchmark suite
// (workloads.json), by the same names, for comparing with the peers' figures.
var mmWorkloads = []struct {
	name   string
	dt     dtype.DType
	as, bs []int
}{
	{"float32/64x64x64", Float32, []int{64, 64}, []int{64, 64}},
	{"float32/256x256x256", Float32, []int{256, 256}, []int{256, 256}},
	{"float32/1024x1024x1024", Float32, []int{1024, 1024}, []int{1024, 1024}},
	{"float32/2048x2048x2048", Float32, []int{2048, 2048}, []int{2048, 2048}},
	{"float64/64x64x64", Float64, []int{64, 64}, []int{64, 64}},
	{"float64/256x256x256", Float64, []int{256, 256}, []int{256, 256}},
	{"float64/1024x1024x1024", Float64, []int{1024, 1024}, []int{1024, 1024}},
	{"float64/2048x2048x2048", Float64, []int{2048, 2048}, []int{2048, 2048}},
	{"float32/batch16384x8x8", Float32, []int{16384, 8, 8}, []int{16384, 8, 8}},
	{"float32/batch512x64x64@64x64", Float32, []int{512, 64, 64}, []int{64, 64}},
	{"float32/gemv4096", Float32, []int{4096, 4096}, []int{4096}},
	{"float32/tall100000x64x64", Float32, []int{100000, 64}, []int{64, 64}},
	{"int32/256x256x256", Int32, []int{256, 256}, []int{256, 256}},
}

// mmBenchOperands returns contiguous random operands of the given shapes.
func mmBenchOperands(b *testing.B, dt dtype.DType, as, bs []int) (x, y *Tensor) {
	b.Helper()
	x, err := Rand(1, dt, 1, 3, as...)
	if err == nil {
		y, err = Rand(2, dt, 1, 3, bs...)
	}
	if err != nil {
		b.Fatal(err)
	}
	return x, y
}

// mmReportFlops reports the product's rate in GFLOP/s (two flops per
// multiply-add), the peers' unit.
func mmReportFlops(b *testing.B, as, bs []int) {
	ms, err := shape.Matmul(as, bs)
	if err != nil {
		b.Fatal(err)
	}
	flops := 2 * float64(ms.M) * float64(ms.N) * float64(ms.K) * float64(shape.MustSize(ms.Batch))
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkMatmul times Matmul on the benchmark suite's matmul/ workloads,
// a new result each call as the suite's runner does.
func BenchmarkMatmul(b *testing.B) {
	for _, w := range mmWorkloads {
		b.Run(w.name, func(b *testing.B) {
			x, y := mmBenchOperands(b, w.dt, w.as, w.bs)
			for b.Loop() {
				if _, err := Matmul(x, y); err != nil {
					b.Fatal(err)
				}
			}
			mmReportFlops(b, w.as, w.bs)
		})
	}
}

// BenchmarkMatmulInto times MatmulInto on the same workloads into one
// reused output, which leaves out the allocation of the result.
func BenchmarkMatmulInto(b *testing.B) {
	for _, w := range mmWorkloads {
		b.Run(w.name, func(b *testing.B) {
			x, y := mmBenchOperands(b, w.dt, w.as, w.bs)
			out, err := Matmul(x, y)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := MatmulInto(out, x, y); err != nil {
					b.Fatal(err)
				}
			}
			mmReportFlops(b, w.as, w.bs)
		})
	}
}

// BenchmarkMatmulGEMM times package gemm alone on the same workloads, with
// the arguments MatmulInto passes it: the floor that Matmul and MatmulInto
// are measured against.
func BenchmarkMatmulGEMM(b *testing.B) {
	for _, w := range mmWorkloads {
		b.Run(w.name, func(b *testing.B) {
			x, y := mmBenchOperands(b, w.dt, w.as, w.bs)
			out, err := Matmul(x, y)
			if err != nil {
				b.Fatal(err)
			}
			p, err := planMatmul(x, y, nil)
			if err != nil {
				b.Fatal(err)
			}
			l := p.stridedLayout(x, y, out)
			switch w.dt {
			case Float32:
				mmBenchGEMM[float32](b, &l, x, y, out)
			case Float64:
				mmBenchGEMM[float64](b, &l, x, y, out)
			case Int32:
				mmBenchGEMM[int32](b, &l, x, y, out)
			default:
				b.Fatalf("no gemm for %v", w.dt)
			}
			mmReportFlops(b, w.as, w.bs)
		})
	}
}

func mmBenchGEMM[T gemm.Elem](b *testing.B, l *batchLayout, x, y, out *Tensor) {
	a, bb, c := gemm.Matrix[T](view[T](l.a, x)), gemm.Matrix[T](view[T](l.b, y)), gemm.Matrix[T](view[T](l.c, out))
	for b.Loop() {
		gemmMul(l, a, bb, c, gemm.Options{})
	}
}

// BenchmarkMatmulPaths compares the fast GEMM with the plain blocked kernel
// on dtypes that reach the GEMM by widening, reinterpreting or splitting.
func BenchmarkMatmulPaths(b *testing.B) {
	for _, bc := range []struct {
		name   string
		dt     dtype.DType
		as, bs []int
	}{
		{"float16/128x128x128", Float16, []int{128, 128}, []int{128, 128}},
		{"complex64/128x128x128", Complex64, []int{128, 128}, []int{128, 128}},
		{"int8/128x128x128", Int8, []int{128, 128}, []int{128, 128}},
		{"uint32/128x128x128", Uint32, []int{128, 128}, []int{128, 128}},
		{"int32@float32/128x128x128", Float32, []int{128, 128}, []int{128, 128}},
	} {
		for _, fast := range []bool{true, false} {
			name := bc.name + "/plain"
			if fast {
				name = bc.name + "/fast"
			}
			b.Run(name, func(b *testing.B) {
				old := useFastMatmul
				useFastMatmul = fast
				defer func() { useFastMatmul = old }()
				x, y := mmBenchOperands(b, bc.dt, bc.as, bc.bs)
				if strings.HasPrefix(bc.name, "int32@") {
					x, _ = x.AsType(Int32)
				}
				for b.Loop() {
					if _, err := Matmul(x, y); err != nil {
						b.Fatal(err)
					}
				}
				mmReportFlops(b, bc.as, bc.bs)
			})
		}
	}
}

// mmGolden is a tensor as testdata/gen_matmul.py writes it.
type mmGolden struct {
	DType string            `json:"dtype"`
	Shape []int             `json:"shape"`
	Data  []json.RawMessage `json:"data"`
}

func (g mmGolden) tensor(t *testing.T) *Tensor {
	t.Helper()
	dt, err := dtype.Parse(g.DType)
	if err != nil {
		t.Fatal(err)
	}
	x, err := empty(dt, g.Shape)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Data) != x.n {
		t.Fatalf("golden %v%v: %d values", dt, g.Shape, len(g.Data))
	}
	for i, raw := range g.Data {
		var v any
		switch {
		case dt == Bool:
			var b bool
			err = json.Unmarshal(raw, &b)
			v = b
		case dt.IsInteger():
			// Integers up to 2^64-1 do not survive float64: parse the text.
			var n json.Number
			if err = json.Unmarshal(raw, &n); err == nil {
				var i64 int64
				if i64, err = strconv.ParseInt(n.String(), 10, 64); err != nil {
					var u64 uint64
					u64, err = strconv.ParseUint(n.String(), 10, 64)
					i64 = int64(u64)
				}
				v = i64
			}
		case dt.IsComplex():
			var parts [2]float64
			err = json.Unmarshal(raw, &parts)
			v = complex(parts[0], parts[1])
		default:
			var f float64
			err = json.Unmarshal(raw, &f)
			v = f
		}
		if err != nil {
			t.Fatalf("golden %v value %s: %v", dt, raw, err)
		}
		mmSetRaw(x, i, v)
	}
	return x
}

// TestMatmulGolden compares with products computed by NumPy and PyTorch
// (testdata/gen_matmul.py): integers and bools exactly, floats within the
// bound of mmCheck.
func TestMatmulGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/matmul_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name string
			A, B mmGolden
			Out  mmGolden
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	mmBothPaths(t, func(t *testing.T) {
		for _, tc := range file.Cases {
			a, b, want := tc.A.tensor(t), tc.B.tensor(t), tc.Out.tensor(t)
			got, err := Matmul(a, b)
			if err != nil {
				t.Fatalf("%s: %v", tc.Name, err)
			}
			if got.dtype != want.dtype || !shape.Equal(got.shape, want.shape) {
				t.Fatalf("%s: %v %v, want %v %v", tc.Name, got.dtype, got.shape, want.dtype, want.shape)
			}
			_, scale, _ := mmRef(a, b, got.dtype)
			k := a.shape[len(a.shape)-1]
			uacc := mmRoundoff(dtype.Accumulator(got.dtype))
			g, w := mmRead(got), mmRead(want)
			for i := range g {
				tol := float64(2*k+4)*uacc*scale[i] + mmRoundoff(got.dtype)*cmplx.Abs(w[i].c)
				if got.dtype.IsInteger() || got.dtype == Bool {
					tol = 0
				}
				if g[i].b != w[i].b || !(cmplx.Abs(g[i].c-w[i].c) <= tol) || (tol == 0 && g[i].i != w[i].i) {
					t.Fatalf("%s: element %d = %v, want %v (tolerance %g)", tc.Name, i, g[i], w[i], tol)
				}
			}
		}
	})
}
