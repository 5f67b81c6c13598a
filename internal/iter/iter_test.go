package iter

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// visit records, for every element the plan reaches, the byte offsets of
// all operands relative to their bases, in the order the plan reaches them.
func visit(p *Plan, nops int, first, last int) [][]int {
	// Offsets may be negative (reversed views), so every base sits in the
	// middle of a buffer large enough for any test shape.
	buf := make([]byte, 1<<16)
	bases := make([]unsafe.Pointer, nops)
	for k := range bases {
		bases[k] = unsafe.Pointer(&buf[len(buf)/2])
	}
	var got [][]int
	p.RunRange(bases, first, last, func(ptrs []unsafe.Pointer, strides []int, n int) {
		for i := range n {
			offs := make([]int, nops)
			for k := range nops {
				offs[k] = int(uintptr(ptrs[k])-uintptr(bases[k])) + i*strides[k]
			}
			got = append(got, offs)
		}
	})
	return got
}

// naive enumerates every index of shape and the operands' offsets there.
func naive(shape []int, strides [][]int) [][]int {
	total := 1
	for _, d := range shape {
		total *= d
	}
	var out [][]int
	idx := make([]int, len(shape))
	for range total {
		offs := make([]int, len(strides))
		for k, st := range strides {
			for d := range shape {
				offs[k] += idx[d] * st[d]
			}
		}
		out = append(out, offs)
		for d := len(shape) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

func sortedTuples(x [][]int) [][]int {
	y := slices.Clone(x)
	slices.SortFunc(y, func(a, b []int) int { return slices.Compare(a, b) })
	return y
}

func TestPlanVisitsEveryElementOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		rank := r.IntN(5)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = r.IntN(4) + 1
			if r.IntN(20) == 0 {
				shape[d] = 0
			}
		}
		nops := 1 + r.IntN(3)
		strides := make([][]int, nops)
		for k := range strides {
			strides[k] = randomStrides(r, shape)
		}
		p := NewPlan(shape, strides...)
		want := naive(shape, strides)
		got := visit(p, nops, 0, p.Runs())
		if !slices.EqualFunc(sortedTuples(got), sortedTuples(want), slices.Equal) {
			t.Fatalf("trial %d shape %v strides %v: plan %v %v visited %v, want %v", trial, shape, strides, p.shape, p.strides, got, want)
		}
		// Any split into ranges visits the same elements in the same order.
		if runs := p.Runs(); runs > 1 {
			mid := r.IntN(runs)
			split := append(visit(p, nops, 0, mid), visit(p, nops, mid, runs)...)
			if !slices.EqualFunc(split, got, slices.Equal) {
				t.Fatalf("trial %d: split at run %d visits %v, whole %v", trial, mid, split, got)
			}
		}
	}
}

// randomStrides gives a contiguous, transposed, stepped, broadcast or
// reversed layout for shape, in bytes of a 4-byte element.
func randomStrides(r *rand.Rand, shape []int) []int {
	st := make([]int, len(shape))
	perm := r.Perm(len(shape))
	step := 4 * (1 + r.IntN(2))
	for _, d := range perm {
		switch r.IntN(6) {
		case 0:
			st[d] = 0
		case 1:
			st[d] = -step
		default:
			st[d] = step
		}
		step *= max(shape[d], 1)
	}
	return st
}

func TestContiguousIsOneRun(t *testing.T) {
	p := NewPlan([]int{2, 3, 4}, []int{48, 16, 4}, []int{48, 16, 4})
	if p.Runs() != 1 || p.Inner() != 24 {
		t.Fatalf("contiguous (2,3,4) gave shape %v", p.Shape())
	}
}

func TestReductionOrder(t *testing.T) {
	// Reducing axis 0 of a (4096, 8) float32 matrix: the output has stride 0
	// along axis 0, so the input's strides order the loops and the inner run
	// walks the kept axis, where both operands are contiguous.
	p := NewPlan([]int{4096, 8}, []int{0, 4}, []int{32, 4})
	if got := p.Shape(); !slices.Equal(got, []int{4096, 8}) || p.Strides(0)[1] != 4 || p.Strides(1)[1] != 4 {
		t.Fatalf("axis-0 reduction plan: shape %v strides %v %v", got, p.Strides(0), p.Strides(1))
	}
	// Reducing axis 1: the inner run walks the reduced axis with output stride 0.
	p = NewPlan([]int{8, 4096}, []int{4, 0}, []int{16384, 4})
	if p.Strides(0)[1] != 0 || p.Strides(1)[1] != 4 || p.Inner() != 4096 {
		t.Fatalf("axis-1 reduction plan: shape %v strides %v %v", p.Shape(), p.Strides(0), p.Strides(1))
	}
}

func TestTransposedOperandFollowsOutput(t *testing.T) {
	// out contiguous (3, 5); a is the transpose of a contiguous (5, 3).
	p := NewPlan([]int{3, 5}, []int{20, 4}, []int{4, 12})
	if p.Strides(0)[1] != 4 || p.Strides(1)[1] != 12 {
		t.Fatalf("inner strides %d %d, want the output's contiguous axis inside", p.Strides(0)[1], p.Strides(1)[1])
	}
}

func TestSplitInner(t *testing.T) {
	p := NewPlan([]int{1000}, []int{4}, []int{8})
	parts := p.SplitInner(3, 100)
	if len(parts) != 3 {
		t.Fatalf("got %d parts", len(parts))
	}
	var all [][]int
	for _, q := range parts {
		all = append(all, visit(q, 2, 0, q.Runs())...)
	}
	if !slices.EqualFunc(all, visit(p, 2, 0, 1), slices.Equal) {
		t.Fatalf("split visits differ from the whole")
	}
	if len(p.SplitInner(3, 600)) != 1 {
		t.Fatalf("a run shorter than two minimum parts must not split")
	}
}
