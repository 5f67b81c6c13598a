package gemm

import "unsafe"

// smallGo is the Go twin of the small kernels (and the small kernel of the
// types and kernel sets that have no assembly one). Every element is summed
// from +0 in order of p, each product rounded before it is added (T(a*b)),
// as in the Go micro-kernels; the assembly fuses instead.
//
// Blocks of 2 rows by 4 columns keep eight independent sums in registers;
// the loop it replaces, one sum at a time through a copied view per
// element, ran a 16384×8×8 float32 batch at 0.31 GFLOP per CPU-second.
// With row-major B the blocks walk pointers after one range check per row
// pair (5.6 GFLOP per CPU-second against 4.7 with a bounds check per step,
// Sapphire Rapids, -tags purego).
func smallGo[T Elem](m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
	for i := range aOffs {
		ao, bo, co := a.Off+aOffs[i], b.Off+bOffs[i], c.Off+cOffs[i]
		for r := 0; r < m; r += 2 {
			r1 := min(r+1, m-1) // a last odd row is computed twice, stored once
			a0, a1 := ao+r*a.RS, ao+r1*a.RS
			c0, c1 := co+r*c.RS, co+r1*c.RS
			j := 0
			if b.CS == 1 && k > 0 && spans(a.Data, a0, a1, a.CS, k) && spansRows(b.Data, bo, b.RS, k, n) {
				for ; j+4 <= n; j += 4 {
					s := smallBlockPtr(k, &a.Data[a0], &a.Data[a1], a.CS, &b.Data[bo+j], b.RS)
					for q := range 4 {
						c.Data[c1+(j+q)*c.CS] = s[4+q]
						c.Data[c0+(j+q)*c.CS] = s[q]
					}
				}
			}
			for ; j < n; j++ {
				s0, s1 := smallColumn(k, a.Data, a0, a1, a.CS, b.Data, bo+j*b.CS, b.RS)
				c.Data[c1+j*c.CS] = s1
				c.Data[c0+j*c.CS] = s0
			}
		}
	}
}

// smallBlock returns the sums over p < k of x[a0+p*acs]·y[b0+p*brs+j] and
// x[a1+p*acs]·y[b0+p*brs+j] for j < 4 (the first row's four, then the
// second's).
func smallBlock[T Elem](k int, x []T, a0, a1, acs int, y []T, b0, brs int) [8]T {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	for ; k > 0; k-- {
		bp := y[b0 : b0+4 : b0+4]
		b0c, b1c, b2c, b3c := bp[0], bp[1], bp[2], bp[3]
		x0, x1 := x[a0], x[a1]
		c00 += T(x0 * b0c)
		c01 += T(x0 * b1c)
		c02 += T(x0 * b2c)
		c03 += T(x0 * b3c)
		c10 += T(x1 * b0c)
		c11 += T(x1 * b1c)
		c12 += T(x1 * b2c)
		c13 += T(x1 * b3c)
		a0, a1, b0 = a0+acs, a1+acs, b0+brs
	}
	return [8]T{c00, c01, c02, c03, c10, c11, c12, c13}
}

// smallColumn returns the sums over p < k of x[a0+p*acs]·y[b0+p*brs] and
// x[a1+p*acs]·y[b0+p*brs].
func smallColumn[T Elem](k int, x []T, a0, a1, acs int, y []T, b0, brs int) (s0, s1 T) {
	for ; k > 0; k-- {
		v := y[b0]
		s0 += T(x[a0] * v)
		s1 += T(x[a1] * v)
		a0, a1, b0 = a0+acs, a1+acs, b0+brs
	}
	return s0, s1
}

// spans reports whether x holds elements a0 + p·acs and a1 + p·acs for
// every p < k (k ≥ 1).
func spans[T any](x []T, a0, a1, acs, k int) bool {
	last := (k - 1) * acs
	return min(a0, a1, a0+last, a1+last) >= 0 && max(a0, a1, a0+last, a1+last) < len(x)
}

// spansRows reports whether y holds the k rows of n elements at b0 + p·brs
// (k ≥ 1).
func spansRows[T any](y []T, b0, brs, k, n int) bool {
	last := b0 + (k-1)*brs
	return min(b0, last) >= 0 && max(b0, last)+n <= len(y)
}

// smallBlockPtr is smallBlock walking pointers its caller has checked
// (spans, spansRows): the three bounds checks of each step cost more than
// its eight multiply-adds. No pointer goes past the last step's elements.
func smallBlockPtr[T Elem](k int, x0, x1 *T, acs int, y *T, brs int) [8]T {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	size := int(unsafe.Sizeof(*x0))
	pa0, pa1, pb := unsafe.Pointer(x0), unsafe.Pointer(x1), unsafe.Pointer(y)
	for {
		bp := (*[4]T)(pb)
		b0c, b1c, b2c, b3c := bp[0], bp[1], bp[2], bp[3]
		v0, v1 := *(*T)(pa0), *(*T)(pa1)
		c00 += T(v0 * b0c)
		c01 += T(v0 * b1c)
		c02 += T(v0 * b2c)
		c03 += T(v0 * b3c)
		c10 += T(v1 * b0c)
		c11 += T(v1 * b1c)
		c12 += T(v1 * b2c)
		c13 += T(v1 * b3c)
		if k--; k == 0 {
			return [8]T{c00, c01, c02, c03, c10, c11, c12, c13}
		}
		pa0, pa1, pb = unsafe.Add(pa0, acs*size), unsafe.Add(pa1, acs*size), unsafe.Add(pb, brs*size)
	}
}
