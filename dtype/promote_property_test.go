package dtype

import "testing"

// The properties every promotion rule must keep, checked over all pairs (and
// triples) so that a new dtype or an edited table row cannot break them
// silently.

// TestPromoteIsSymmetric: the order of the operands never matters, for
// results and errors alike.
func TestPromoteIsSymmetric(t *testing.T) {
	for _, a := range All {
		for _, b := range All {
			ab, errAB := Promote(a, b)
			ba, errBA := Promote(b, a)
			if ab != ba || (errAB == nil) != (errBA == nil) {
				t.Errorf("Promote(%v, %v) = %v, %v but Promote(%v, %v) = %v, %v", a, b, ab, errAB, b, a, ba, errBA)
			}
		}
	}
}

// TestPromoteNeverLowers: the result's kind is at least each input's, and
// within an input's kind it is at least as wide, so every input converts
// into the result without losing its kind.
func TestPromoteNeverLowers(t *testing.T) {
	for _, a := range All {
		for _, b := range All {
			r, err := Promote(a, b)
			if err != nil {
				continue
			}
			for _, in := range []DType{a, b} {
				if r.Kind().rank() < in.Kind().rank() {
					t.Errorf("Promote(%v, %v) = %v has a lower kind than %v", a, b, r, in)
				}
				if r.Kind() == in.Kind() && r.Bits() < in.Bits() {
					t.Errorf("Promote(%v, %v) = %v is narrower than %v", a, b, r, in)
				}
				if !CanCastInto(in, r) {
					t.Errorf("Promote(%v, %v) = %v, but %v cannot be cast into it", a, b, r, in)
				}
			}
		}
	}
}

// TestPromoteIsIdempotentAndAssociative: a dtype with itself is itself, and
// wherever every intermediate promotion exists, grouping does not matter
// (uint64 with signed integers is an error, so some groupings have none).
func TestPromoteIsIdempotentAndAssociative(t *testing.T) {
	for _, a := range All {
		if r, err := Promote(a, a); err != nil || r != a {
			t.Errorf("Promote(%v, %v) = %v, %v", a, a, r, err)
		}
		for _, b := range All {
			for _, c := range All {
				ab, err1 := Promote(a, b)
				bc, err2 := Promote(b, c)
				if err1 != nil || err2 != nil {
					continue
				}
				left, err3 := Promote(ab, c)
				right, err4 := Promote(a, bc)
				if err3 != nil || err4 != nil {
					continue
				}
				if left != right {
					t.Errorf("(%v, %v), %v gives %v but %v, (%v, %v) gives %v", a, b, c, left, a, b, c, right)
				}
			}
		}
	}
}
