package vec

import "github.com/tensor-go/tensor/internal/cmul"

// complexLanes is the number of running products ProdC64 and ProdC128
// keep: eight independent chains hide the latency of a complex multiply
// (four multiplies and two adds in a row), which one chain waits out per
// element.
const complexLanes = 8

// ProdC64MinLanes is the shortest run ProdC64 and ProdC128 take in lanes;
// shorter runs, the segments of a reduction over a short axis among them,
// are multiplied one element after another.
const ProdC64MinLanes = 32

// ProdC64 returns the product of a in complex128, with textbook products
// (cmul.Mul128) and the rule that a running product of exactly 1 takes
// the next factor as it is (so that a product starts from its first
// element: 1·(2−∞i) by the formula would be NaN−∞i). A run of at least
// ProdC64MinLanes elements is multiplied in complexLanes lanes, element i
// into lane i%8, and the lanes folded pairwise (lane j with j+4, then
// j+2, then j+1) under the same rule; a shorter one in order.
func ProdC64(a []complex64) complex128 { return prodComplex(a) }

// ProdC128 is ProdC64 for complex128.
func ProdC128(a []complex128) complex128 { return prodComplex(a) }

func prodComplex[C complex64 | complex128](a []C) complex128 {
	if len(a) < ProdC64MinLanes {
		p := complex128(1)
		for _, v := range a {
			p = times(p, complex128(v))
		}
		return p
	}
	var l [complexLanes]complex128
	for j := range l {
		l[j] = 1
	}
	for ; len(a) >= complexLanes; a = a[complexLanes:] {
		b := (*[complexLanes]C)(a)
		for j := range l {
			l[j] = times(l[j], complex128(b[j]))
		}
	}
	for j, v := range a {
		l[j] = times(l[j], complex128(v))
	}
	for half := complexLanes / 2; half > 0; half /= 2 {
		for j := range half {
			l[j] = times(l[j], l[j+half])
		}
	}
	return l[0]
}

// times is p·v under the product's rule for a p of exactly 1.
func times(p, v complex128) complex128 {
	if p == 1 {
		return v
	}
	return cmul.Mul128(p, v)
}
