package sparse

import (
	"slices"
	"testing"
)

// fuzzReader hands out small signed numbers from fuzz input, so that
// indices land both inside and just outside their ranges.
type fuzzReader []byte

func (r *fuzzReader) next() int64 {
	if len(*r) == 0 {
		return 0
	}
	v := int64(int8((*r)[0]))
	*r = (*r)[1:]
	return v
}

func (r *fuzzReader) list(n int) []int64 {
	out := make([]int64, 0, n)
	for range n {
		out = append(out, r.next())
	}
	return out
}

// checkConsistent checks that every form of an accepted matrix densifies
// to the same thing, exactly (int64 sums are exact in any order).
func checkConsistent(t *testing.T, want []int64, rows, cols int, forms map[string]func() []int64) {
	for name, dense := range forms {
		if got := dense(); !slices.Equal(got, want) {
			t.Fatalf("%d×%d: %s densifies to %v, want %v", rows, cols, name, got, want)
		}
	}
}

func FuzzNewCOO(f *testing.F) {
	f.Add([]byte{3, 4, 3, 0, 1, 2, 3, 3, 0, 5, 6, 7})
	f.Add([]byte{2, 2, 2, 1, 1, 1, 1, 9, 9})
	f.Add([]byte{0, 3, 1, 0, 0, 1})
	f.Add([]byte{2, 2, 1, 0xff, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzReader(data)
		rows, cols := int(r.next()%8), int(r.next()%8)
		n := int(r.next() & 15)
		ri, ci := r.list(n), r.list(n)
		v := r.list(max(n-int(r.next()&1), 0)) // sometimes one value short
		m, err := NewCOO(rows, cols, ri, ci, v)
		if err != nil {
			return
		}
		want := naiveDense(rows, cols, ri, ci, v)
		viaToDense := func() []int64 {
			d := Dense[int64]{Data: make([]int64, rows*cols), RS: cols, CS: 1, Rows: rows, Cols: cols}
			m.ToDense(d)
			return d.Data
		}
		checkConsistent(t, want, rows, cols, map[string]func() []int64{
			"ToDense":   viaToDense,
			"Coalesce":  func() []int64 { return denseOfCOO(m.Coalesce()) },
			"ToCSR":     func() []int64 { return denseOfCSR(m.ToCSR()) },
			"GroupRows": func() []int64 { return denseOfCSR(m.GroupRows()) },
			"FromDense": func() []int64 {
				return denseOfCSR(mustFromDense(FromDense(Dense[int64]{Data: want, RS: cols, CS: 1, Rows: rows, Cols: cols}, 0)))
			},
		})
	})
}

func FuzzNewCSR(f *testing.F) {
	f.Add([]byte{3, 4, 0, 2, 2, 4, 4, 0, 3, 1, 1, 5, 6, 7, 8})
	f.Add([]byte{1, 3, 0, 3, 3, 2, 2, 2, 1, 2, 3})
	f.Add([]byte{2, 2, 1, 1, 1, 0, 4})
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzReader(data)
		rows, cols := int(r.next()%8), int(r.next()%8)
		ptr := r.list(max(rows+int(r.next()%2), 0)) // sometimes one entry long or short
		nnz := 0
		if len(ptr) > 0 {
			nnz = int(ptr[len(ptr)-1]) & 31
		}
		ci, v := r.list(nnz), r.list(nnz)
		m, err := NewCSR(rows, cols, ptr, ci, v)
		if err != nil {
			return
		}
		want := denseOfCSR(m)
		checkConsistent(t, want, rows, cols, map[string]func() []int64{
			"ToDense": func() []int64 {
				d := Dense[int64]{Data: make([]int64, rows*cols), RS: cols, CS: 1, Rows: rows, Cols: cols}
				m.ToDense(d)
				return d.Data
			},
			"Canonical":     func() []int64 { return denseOfCSR(m.Canonical()) },
			"ToCOO":         func() []int64 { return denseOfCOO(m.ToCOO()) },
			"ToCOO().ToCSR": func() []int64 { return denseOfCSR(m.ToCOO().ToCSR()) },
			"SpGEMM by identity": func() []int64 {
				id := mustFromDense(FromDense(identity(cols), 0))
				return denseOfCSR(SpGEMM(m, id, 2))
			},
		})
		checkCanonical(t, "Canonical", m.Canonical())
	})
}

func identity(n int) Dense[int64] {
	d := Dense[int64]{Data: make([]int64, n*n), RS: n, CS: 1, Rows: n, Cols: n}
	for i := range n {
		d.Data[i*n+i] = 1
	}
	return d
}
