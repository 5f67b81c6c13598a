package vec

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// quadCase is one set of inputs to the four-row passes: rows of w columns
// stride apart, with guard elements past each row and past the slices.
type quadCase struct {
	x, pre, o, s []float32
	run          []float64
	stride       int
}

func newQuadCase(rng *rand.Rand, w, stride, guard int, scaled bool) quadCase {
	n := 3*stride + w + guard
	c := quadCase{x: exclusiveInputs(rng, n), pre: exclusiveInputs(rng, n), o: exclusiveInputs(rng, n), stride: stride}
	if scaled {
		c.s = exclusiveInputs(rng, w)
	}
	c.run = make([]float64, w+guard)
	for j := range c.run {
		c.run[j] = float64(exclusiveInputs(rng, 1)[0]) * float64(exclusiveInputs(rng, 1)[0])
	}
	return c
}

func (c quadCase) clone() quadCase {
	d := c
	d.x, d.pre, d.o = append([]float32{}, c.x...), append([]float32{}, c.pre...), append([]float32{}, c.o...)
	d.run = append([]float64{}, c.run...)
	return d
}

// quad returns the Quad over c's first w columns; inPlace makes o x.
func (c quadCase) quad(w int, inPlace bool, ahead []float32, stream bool) *Quad {
	q := &Quad{X: c.x, Pre: c.pre, O: c.o, S: c.s, Run: c.run[:w], Stride: c.stride, Ahead: ahead, Stream: stream}
	if inPlace {
		q.O = c.x
	}
	return q
}

func sameQuadCase(t *testing.T, name string, got, want quadCase) {
	t.Helper()
	for _, a := range []struct {
		what      string
		got, want []float32
	}{{"x", got.x, want.x}, {"pre", got.pre, want.pre}, {"o", got.o, want.o}} {
		for i := range a.want {
			if !sameF32(a.got[i], a.want[i]) {
				t.Fatalf("%s: %s[%d] (row %d, column %d) = %v, want %v", name, a.what, i, i/got.stride, i%got.stride, a.got[i], a.want[i])
			}
		}
	}
	for j := range want.run {
		if !sameF64(got.run[j], want.run[j]) {
			t.Fatalf("%s: run[%d] = %v, want %v", name, j, got.run[j], want.run[j])
		}
	}
}

// Every set's four-row passes give the Go twins' bits at every width
// through three steps of the widest kernel and past, scaled or not, in
// place or not, streamed or not, with rows ahead or none, and write
// nothing outside the rows' w columns (the guards keep their values).
func TestExclusiveQuadsMatchTwins(t *testing.T) {
	const guard = 7
	rng := rand.New(rand.NewPCG(21, 22))
	for _, v := range exclusiveTable.Variants() {
		for w := 0; w <= 3*16+guard; w++ {
			for _, stride := range []int{w, w + 3, (w + 15) / 16 * 16} {
				if stride == 0 {
					stride = 1
				}
				for variant := range 16 {
					scaled, inPlace, stream, none := variant&1 != 0, variant&2 != 0, variant&4 != 0, variant&8 != 0
					c := newQuadCase(rng, w, stride, guard, scaled)
					if stream {
						// Aligned rows, so that the kernels take the
						// streaming stores.
						buf := aligned64(len(c.o))
						copy(buf, c.o)
						c.o = buf
					}
					ahead := exclusiveInputs(rng, 3*stride+w)
					if none {
						ahead = nil // the kernels prefetch x itself
					}
					ahead0 := append([]float32{}, ahead...)
					name := fmt.Sprintf("%s/w=%d/stride=%d/scaled=%v/inplace=%v/stream=%v/ahead=%v", v.Name(), w, stride, scaled, inPlace, stream, !none)
					got, want := c.clone(), c.clone()
					if stream {
						got.o = aligned64(len(c.o))
						copy(got.o, c.o)
					}
					v.K.down4(got.quad(w, false, nil, false), w)
					down4Go(want.quad(w, false, nil, false), w)
					sameQuadCase(t, name+"/down", got, want)
					v.K.up4(got.quad(w, inPlace, ahead, stream), w)
					up4Go(want.quad(w, inPlace, nil, false), w)
					sameQuadCase(t, name+"/up", got, want)
					for i := range ahead {
						if !sameF32(ahead[i], ahead0[i]) {
							t.Fatalf("%s/up: the rows ahead changed at %d", name, i)
						}
					}
				}
			}
		}
	}
}

// The two passes over a tall strip, four rows a call from a running
// product of ones, give ExclusiveColumnsF32's bits.
func TestExclusiveQuadsMatchColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const n, w, stride = 12, 37, 41
	for _, v := range exclusiveTable.Variants() {
		restore := exclusiveTable.Use(v.Set)
		x, s := exclusiveInputs(rng, n*stride), exclusiveInputs(rng, w)
		pre, got := make([]float32, n*stride), make([]float32, n*stride)
		run := make([]float64, w)
		for j := range run {
			run[j] = 1
		}
		for i := 0; i < n; i += 4 {
			ExclusiveDown4F32(&Quad{X: x[i*stride:], Pre: pre[i*stride:], Run: run, Stride: stride})
		}
		for j := range run {
			run[j] = 1
		}
		for i := n - 4; i >= 0; i -= 4 {
			ExclusiveUp4F32(&Quad{X: x[i*stride:], Pre: pre[i*stride:], O: got[i*stride:], S: s, Run: run, Stride: stride})
		}
		want := make([]float32, n*stride)
		for j0 := 0; j0 < w; j0 += ColumnsWidth {
			j1 := min(w, j0+ColumnsWidth)
			ExclusiveColumnsF32(&Columns{O: want[j0:], X: x[j0:], S: s[j0:j1], Scratch: make([]float32, ColumnsScratch(n)), OStride: stride, XStride: stride, N: n, W: j1 - j0})
		}
		restore()
		for i := range n {
			for j := range w {
				if k := i*stride + j; !sameF32(got[k], want[k]) {
					t.Fatalf("%s: row %d column %d = %v, want %v", v.Name(), i, j, got[k], want[k])
				}
			}
		}
	}
}

// Rows out of their slices panic with the operation's name.
func TestExclusiveQuadsBounds(t *testing.T) {
	for _, q := range []*Quad{
		{X: make([]float32, 10), Pre: make([]float32, 40), O: make([]float32, 40), Run: make([]float64, 4), Stride: 10},
		{X: make([]float32, 40), Pre: make([]float32, 40), O: make([]float32, 40), Run: make([]float64, 12), Stride: 10},
		{X: make([]float32, 40), Pre: make([]float32, 40), O: make([]float32, 33), Run: make([]float64, 4), Stride: 10},
		{X: make([]float32, 40), Pre: make([]float32, 40), O: make([]float32, 40), S: make([]float32, 3), Run: make([]float64, 4), Stride: 10},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || fmt.Sprint(r) != "vec: ExclusiveUp4F32: rows out of their slices" {
					t.Errorf("ExclusiveUp4F32 on %d/%d/%d rows of stride %d: recovered %v", len(q.X), len(q.Pre), len(q.O), q.Stride, r)
				}
			}()
			ExclusiveUp4F32(q)
		}()
	}
}
