package iter

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// record returns a kernel appending to *got the byte offsets, relative to
// bases, of all operands at every element of each run.
func record(bases []unsafe.Pointer, got *[][]int) Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		for i := range n {
			offs := make([]int, len(ptrs))
			for k := range ptrs {
				offs[k] = int(uintptr(ptrs[k])-uintptr(bases[k])) + i*strides[k]
			}
			*got = append(*got, offs)
		}
	}
}

// middle returns nops bases in the middle of a buffer large enough for any
// test shape: offsets may be negative (reversed views).
func middle(nops int) []unsafe.Pointer {
	buf := make([]byte, 1<<16)
	bases := make([]unsafe.Pointer, nops)
	for k := range bases {
		bases[k] = unsafe.Pointer(&buf[len(buf)/2])
	}
	return bases
}

// visitChunk is visit for chunk c of the given size.
func visitChunk(p *Plan, nops, c, size int) [][]int {
	bases := middle(nops)
	var got [][]int
	p.RunChunk(bases, c, size, record(bases, &got))
	return got
}

// visit records, for every element the plan reaches, the byte offsets of
// all operands relative to their bases, in the order the plan reaches them.
func visit(p *Plan, nops int, first, last int) [][]int {
	bases := middle(nops)
	var got [][]int
	p.RunRange(bases, first, last, record(bases, &got))
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
		// The chunks, in order, visit what the whole walk visits, none more
		// than size elements.
		for _, size := range []int{1, 2, 3, 5, 16} {
			var chunked [][]int
			for c := range p.Chunks(size) {
				part := visitChunk(p, nops, c, size)
				if len(part) > size || len(part) == 0 {
					t.Fatalf("trial %d: chunk %d of size %d has %d elements", trial, c, size, len(part))
				}
				chunked = append(chunked, part...)
			}
			if !slices.EqualFunc(chunked, got, slices.Equal) {
				t.Fatalf("trial %d: chunks of %d visit %v, whole %v", trial, size, chunked, got)
			}
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
