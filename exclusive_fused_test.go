package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/tensor-go/tensor/internal/ewise"
)

// sprinkled returns n values near 1 with zeros, signed zeros, infinities
// and NaN among them.
func sprinkled(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 0.5 + rng.Float64()
		if rng.IntN(2) == 0 {
			v[i] = -v[i]
		}
		switch rng.IntN(40) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		case 2:
			v[i] = math.Inf(1 - 2*rng.IntN(2))
		case 3:
			v[i] = math.NaN()
		}
	}
	return v
}

// sameBits fails unless got and want hold the same bits, NaN apart.
func sameBits(t *testing.T, what string, got, want *Tensor) {
	t.Helper()
	a, _ := ToSlice[float64](Must(got.AsType(Float64)))
	b, _ := ToSlice[float64](Must(want.AsType(Float64)))
	if len(a) != len(b) {
		t.Fatalf("%s: %d elements, want %d", what, len(a), len(b))
	}
	for i := range a {
		// A NaN's sign and payload are not specified (§5): which operand's
		// a multiplication passes on is the compiler's choice.
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, a[i], b[i])
		}
	}
}

// The fused kernels give the generic passes' bits, with and without the
// factor folded in, on one goroutine and on several.
func TestExclusiveFusedMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sizes := [][]int{{1, 1}, {1, 7}, {7, 1}, {3, 5}, {5, 3}, {4, 9}, {9, 4}, {13, 70}, {70, 13}, {67, 301}, {2, 3, 17},
		{4, 3, 33}, {300, 3, 5}, {263, 517}, {3, 301, 97}}
	for _, dt := range []DType{Float32, Float64} {
		for _, s := range sizes {
			n := 1
			for _, d := range s {
				n *= d
			}
			x := Must(Must(FromSlice(sprinkled(rng, n), s...)).AsType(dt))
			for axis := range s {
				mask := make([]bool, len(s))
				mask[axis] = true
				perm, g := groupLayout(s, mask)
				src := x
				if perm != nil {
					src = Must(Must(x.Permute(perm...)).Contiguous())
				}
				var want *Tensor
				if g.inner == 1 && g.outer >= transposeGroups && g.n > 1 {
					want = Must(exclusiveTransposed(src, g))
				} else {
					want = Must(exclusiveInto(src, g))
				}
				want = Must(unpermute("test", want, perm))
				gs := Must(Prod(x, Axis(axis)))
				gv := Must(Must(FromSlice(sprinkled(rng, gs.Size()), gs.Shape()...)).AsType(dt))
				kept := x.Shape()
				kept[axis] = 1
				wantMul := Must(Mul(Must(gv.Reshape(kept...)), want))
				for _, procs := range []int{1, 4} {
					old := runtime.GOMAXPROCS(procs)
					got, err := ExclusiveProd(x, Axis(axis))
					gotMul, errMul := ExclusiveProdMul(x, gv, Axis(axis))
					runtime.GOMAXPROCS(old)
					if err != nil || errMul != nil {
						t.Fatal(err, errMul)
					}
					sameBits(t, "ExclusiveProd "+dt.String()+" "+shapeName(s, axis, procs), got, want)
					sameBits(t, "ExclusiveProdMul "+dt.String()+" "+shapeName(s, axis, procs), gotMul, wantMul)
				}
			}
		}
	}
}

func shapeName(s []int, axis, procs int) string {
	return fmt.Sprintf("shape %v axis %d procs %d", s, axis, procs)
}

// ExclusiveProdMul checks g's shape against Prod's result, and for other
// dtypes is Mul of g and ExclusiveProd.
func TestExclusiveProdMulShapesAndDTypes(t *testing.T) {
	x := Must(FromSlice([]float32{2, 0, 4, 1, 3, 5}, 2, 3))
	if _, err := ExclusiveProdMul(x, Must(Zeros(Float32, 3)), Axis(1)); !errors.Is(err, ErrShape) {
		t.Fatalf("g of the wrong shape: %v, want ErrShape", err)
	}
	if _, err := ExclusiveProdMul(x, Must(Zeros(Float32, 2)), Axis(1), KeepDims(true)); !errors.Is(err, ErrShape) {
		t.Fatalf("g without the kept dimension: %v, want ErrShape", err)
	}
	g := Must(FromSlice([]float64{10, -1}, 2, 1))
	got := Must(ExclusiveProdMul(x, g, Axis(1), KeepDims(true)))
	if got.DType() != Float64 {
		t.Fatalf("dtype %v, want float64 (Mul's promotion)", got.DType())
	}
	want := []float64{0, 80, 0, -15, -5, -3}
	if v, _ := ToSlice[float64](got); !slices.Equal(v, want) {
		t.Fatalf("ExclusiveProdMul = %v, want %v", v, want)
	}
	g32 := Must(FromSlice([]float32{10, -1}, 2))
	if v, _ := ToSlice[float64](Must(Must(ExclusiveProdMul(x, g32, Axis(1))).AsType(Float64))); !slices.Equal(v, want) {
		t.Fatalf("fused ExclusiveProdMul = %v, want %v", v, want)
	}
}

// The blocked column passes, the tall strips, their bands and the row
// bands give the generic passes' bits whatever the blocks, strips and
// bands, streamed or not: with blocks of eight rows, groups of a few blocks and a
// remainder, strips with a narrow last one, zeros, infinities and NaN
// inside and across blocks, with and without the factor.
func TestExclusiveBlockedMatchesGeneric(t *testing.T) {
	old, oldTall, oldStream, oldColumns, oldRowBands := blockedPanel, tallStripRows, ewise.StreamOutputBytes, tallColumnRows, rowBandsFor
	blockedPanel = 1 // eight rows a block
	defer func() {
		blockedPanel, tallStripRows, ewise.StreamOutputBytes, tallColumnRows, rowBandsFor = old, oldTall, oldStream, oldColumns, oldRowBands
	}()
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range []DType{Float32, Float64} {
		for _, s := range [][]int{{8, 64}, {9, 64}, {7, 65}, {17, 600}, {40, 513}, {2, 33, 100}, {3, 25, 1100}} {
			n := 1
			for _, d := range s {
				n *= d
			}
			x := Must(Must(FromSlice(sprinkled(rng, n), s...)).AsType(dt))
			axis := len(s) - 2
			_, g := groupLayout(s, func() []bool { m := make([]bool, len(s)); m[axis] = true; return m }())
			if g.inner < blockedMinWidth {
				t.Fatalf("shape %v: inner %d does not take the blocked passes", s, g.inner)
			}
			want := Must(exclusiveInto(x, g))
			gs := Must(Prod(x, Axis(axis)))
			gv := Must(Must(FromSlice(sprinkled(rng, gs.Size()), gs.Shape()...)).AsType(dt))
			kept := x.Shape()
			kept[axis] = 1
			wantMul := Must(Mul(Must(gv.Reshape(kept...)), want))
			for mode := range 8 {
				tall, stream, bands, rowBands := mode&1 == 1, mode&2 == 2, mode >= 4, mode >= 6
				if !tall && !bands {
					tallStripRows = func() int { return 0 }
				}
				if bands {
					tallColumnRows = 2 + mode%2*8 // bands of one and of five rows (a four-row kernel call and one more)
					// Row bands of eight rows (blockedPanel), on every
					// kernel set, or strips.
					rowBandsFor = func(groups, int) bool { return rowBands }
				}
				if stream {
					ewise.StreamOutputBytes = 0
				}
				name := fmt.Sprintf("%s tall=%v stream=%v bands=%v rowbands=%v %s", dt, tall, stream, bands, rowBands, shapeName(s, axis, 0))
				for _, procs := range []int{1, 3} {
					prev := runtime.GOMAXPROCS(procs)
					got, err := ExclusiveProd(x, Axis(axis))
					gotMul, errMul := ExclusiveProdMul(x, gv, Axis(axis))
					runtime.GOMAXPROCS(prev)
					if err != nil || errMul != nil {
						t.Fatal(err, errMul)
					}
					sameBits(t, "blocked ExclusiveProd "+name+fmt.Sprint(" procs ", procs), got, want)
					sameBits(t, "blocked ExclusiveProdMul "+name+fmt.Sprint(" procs ", procs), gotMul, wantMul)
				}
				tallStripRows, ewise.StreamOutputBytes, tallColumnRows, rowBandsFor = oldTall, oldStream, oldColumns, oldRowBands
			}
		}
	}
}

// Rows (the last axis) taken as transposed strips give the generic passes'
// bits: blocks of 32 rows and a remainder, rows that are and are not whole
// 16-element blocks, zeros, infinities and NaN, with and without the
// factor, at several goroutine counts.
func TestExclusiveRowsTransposedMatchesGeneric(t *testing.T) {
	defer func(saved func() bool) { rowsInPlace = saved }(rowsInPlace)
	rowsInPlace = func() bool { return false }
	for _, bands := range []int{0, 1, 5, 16, 40} {
		t.Run(fmt.Sprint("bands of ", bands), func(t *testing.T) { rowsTransposedMatchGeneric(t, bands) })
	}
	for _, seg := range []int{1, 5, 16, 40, 48} {
		t.Run(fmt.Sprint("segments of ", seg), func(t *testing.T) {
			old := transposedSegmentsAbove
			transposedSegmentsAbove = func() int { return 16 }
			defer func() { transposedSegmentsAbove = old }()
			rowsTransposedMatchGeneric(t, seg)
		})
	}
}

// rowsTransposedMatchGeneric is TestExclusiveRowsTransposedMatchesGeneric
// with rows of more than 16 elements in bands of band rows of the strip
// (0: each strip in one call).
func rowsTransposedMatchGeneric(t *testing.T, band int) {
	if band > 0 {
		oldAbove, oldBand := transposedBandsAbove, transposedBandRows
		transposedBandsAbove, transposedBandRows = func() int { return 16 }, band
		defer func() { transposedBandsAbove, transposedBandRows = oldAbove, oldBand }()
	}
	rng := rand.New(rand.NewPCG(19, 20))
	for _, s := range [][]int{{32, 16}, {40, 37}, {64, 100}, {2, 33, 48}, {97, 1031}, {33, 81}} {
		checkRowsMatchGeneric(t, rng, "rows", s, Float32)
	}
}

// Rows taken four at a time in place (vec.ExclusiveRows4F32, forced on
// whatever the kernel set prefers) give the generic passes' bits: groups
// of four and the rows left over, rows shorter than a block of four and
// rows with a partial block, with and without the factor, at several
// goroutine counts.
func TestExclusiveRowsInPlaceMatchesGeneric(t *testing.T) {
	defer func(saved func() bool) { rowsInPlace = saved }(rowsInPlace)
	rowsInPlace = func() bool { return true }
	rng := rand.New(rand.NewPCG(23, 24))
	for _, s := range [][]int{{4, 1}, {4, 3}, {5, 4}, {8, 5}, {9, 17}, {2, 6, 33}, {13, 4099}, {40, 37}, {8, 64}, {9, 67}, {4, 200}} {
		for _, dt := range []DType{Float32, Float64} {
			checkRowsMatchGeneric(t, rng, "in place", s, dt)
		}
	}
}

// checkRowsMatchGeneric checks ExclusiveProd and ExclusiveProdMul over
// the last axis of a random x of shape s in dtype dt against the generic
// passes, bit for bit, at 1 and 3 goroutines.
func checkRowsMatchGeneric(t *testing.T, rng *rand.Rand, label string, s []int, dt DType) {
	t.Helper()
	n := 1
	for _, d := range s {
		n *= d
	}
	x := Must(Must(FromSlice(sprinkled(rng, n), s...)).AsType(dt))
	axis := len(s) - 1
	mask := make([]bool, len(s))
	mask[axis] = true
	_, g := groupLayout(s, mask)
	want := Must(exclusiveInto(x, g))
	gs := Must(Prod(x, Axis(axis)))
	gv := Must(Must(FromSlice(sprinkled(rng, gs.Size()), gs.Shape()...)).AsType(dt))
	kept := x.Shape()
	kept[axis] = 1
	wantMul := Must(Mul(Must(gv.Reshape(kept...)), want))
	for _, procs := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := ExclusiveProd(x, Axis(axis))
		gotMul, errMul := ExclusiveProdMul(x, gv, Axis(axis))
		runtime.GOMAXPROCS(prev)
		if err != nil || errMul != nil {
			t.Fatal(err, errMul)
		}
		sameBits(t, label+" ExclusiveProd "+dt.String()+" "+shapeName(s, axis, procs), got, want)
		sameBits(t, label+" ExclusiveProdMul "+dt.String()+" "+shapeName(s, axis, procs), gotMul, wantMul)
	}
}
