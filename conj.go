package tensor

// Conj returns the complex conjugate of x: a new contiguous tensor (or, for
// a sparse x, a new sparse tensor of the same pattern) whose imaginary parts
// are negated. For every real, integer and bool dtype the conjugate is x
// itself, and Conj returns x unchanged, without copying.
func Conj(x *Tensor) (*Tensor, error) {
	if x == nil {
		return nil, opErr("conj", ErrValue, "nil *Tensor")
	}
	if err := requireLive("conj", x); err != nil {
		return nil, err
	}
	if !x.dtype.IsComplex() {
		return x, nil
	}
	if x.layout != Strided {
		v, err := Conj(x.sparse.values)
		if err != nil {
			return nil, err
		}
		return x.withValues(v), nil
	}
	out, err := x.copyContiguous("conj")
	if err != nil {
		return nil, err
	}
	// Each element is a (real, imaginary) pair: negate every second float.
	if x.dtype == Complex64 {
		negateOdd(contiguousData[float32](out.pairs()))
	} else {
		negateOdd(contiguousData[float64](out.pairs()))
	}
	return out, nil
}

// pairs views a contiguous complex tensor as its real components.
func (t *Tensor) pairs() *Tensor {
	return &Tensor{dtype: t.dtype, shape: []int{2 * t.Size()}, strides: []int{1},
		offset: 2 * t.offset, storage: t.storage, n: 2 * t.n}
}

func negateOdd[T float32 | float64](s []T) {
	for i := 1; i < len(s); i += 2 {
		s[i] = -s[i]
	}
}
