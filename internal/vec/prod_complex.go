package vec

import "github.com/tensor-go/tensor/internal/cmul"

// lanesC is the number of complex128 lanes of the complex product order:
// two AVX-512 register pairs (real parts and imaginary parts apart) or
// four AVX2 ones. A complex product step is a multiply and an add deep, 8
// cycles of latency; 16 lanes keep the multipliers busy.
const lanesC = 16

// ProdC64Min is the shortest run ProdC64 multiplies in lanes: shorter ones
// (the short axes of the segments schedule, rows of a few elements) are
// multiplied from the left, one element after another, NumPy's order; the
// engine keeps its own loop for them.
const ProdC64Min = 4 * lanesC

// ProdC64 returns the product of a in complex128, in the canonical order
// of complex products: for a run of ProdC64Min or more,
//
//	lane[j] = a[j] for j < 16; for i >= 16 { lane[i%16] = cmul.Mul128(lane[i%16], a[i]) }
//	for half := 8; half > 0; half /= 2 { for j := range half { lane[j] = cmul.Mul128(lane[j], lane[j+half]) } }
//	return lane[0]
//
// and for a shorter one, a[0]·a[1]·… from the left (1 for none). Each lane starts from its first element rather than from 1: the
// textbook product is not an identity for 1 when the other factor has an
// infinite part (1·(2−∞i) would give NaN−∞i). Every product is rounded
// to float64 before the sum (internal/cmul), so the kernel sets and the Go
// twin give the same bits. One element after another, a product of 10^6
// complex64 took 1.8 ms, a dependency chain of about six cycles per
// element; PyTorch takes 0.16.
func ProdC64(a []complex64) complex128 {
	if len(a) < ProdC64Min {
		return prodC64Left(a)
	}
	full := len(a) &^ (lanesC - 1)
	lane := unplanar(prodImpl.c64(a[:full]))
	for j, v := range a[full:] {
		lane[j] = cmul.Mul128(lane[j], complex128(v))
	}
	return foldC(&lane)
}

// ProdC128Min is ProdC64Min for ProdC128: the same order for both.
const ProdC128Min = ProdC64Min

// ProdC128 is ProdC64 for complex128 elements: the same order (16 lanes
// for a run of ProdC128Min or more, each from its first element, folded
// pairwise; from the left below), the same rounded products. One element
// after another, a product of 10^6 took 7.8 ms of CPU, a chain of
// dependent products; in lanes 0.79, NumPy 5.1 (Xeon Sapphire Rapids
// under KVM).
func ProdC128(a []complex128) complex128 {
	if len(a) < ProdC128Min {
		return prodC64Left(a)
	}
	full := len(a) &^ (lanesC - 1)
	lane := unplanar(prodImpl.c128(a[:full]))
	for j, v := range a[full:] {
		lane[j] = cmul.Mul128(lane[j], v)
	}
	return foldC(&lane)
}

// prodC64Left is the product of a from the left, from its first element.
func prodC64Left[C complex64 | complex128](a []C) complex128 {
	if len(a) == 0 {
		return 1
	}
	p := complex128(a[0])
	for _, v := range a[1:] {
		p = cmul.Mul128(p, complex128(v))
	}
	return p
}

// unplanar turns a kernel's planar lanes (the real parts of lanes 0-15,
// then their imaginary parts) into complex lanes.
func unplanar(p [lanes8]float64) (lane [lanesC]complex128) {
	for j := range lane {
		lane[j] = complex(p[j], p[lanesC+j])
	}
	return lane
}

// foldC multiplies 16 complex lanes pairwise, halving their number each
// round, and returns lane 0.
func foldC(l *[lanesC]complex128) complex128 {
	for j := range 8 {
		l[j] = cmul.Mul128(l[j], l[j+8])
	}
	for j := range 4 {
		l[j] = cmul.Mul128(l[j], l[j+4])
	}
	l[0] = cmul.Mul128(l[0], l[2])
	l[1] = cmul.Mul128(l[1], l[3])
	return cmul.Mul128(l[0], l[1])
}

// blocksC64 is the Go twin of the complex64 block kernels: the full
// 16-element blocks of a (at least one) into planar lanes, the first
// block taken as it is. The parts are kept in separate arrays, as the
// kernels keep them in registers, so that the compiler sees four
// independent multiplies per lane.
func blocksC64(a []complex64) (p [lanes8]float64) {
	re, im := (*[lanesC]float64)(p[:lanesC]), (*[lanesC]float64)(p[lanesC:])
	if len(a) < lanesC {
		return p // not called so; the lanes are then meaningless
	}
	for j, v := range a[:lanesC] {
		re[j], im[j] = float64(real(v)), float64(imag(v))
	}
	for a = a[lanesC:]; len(a) >= lanesC; a = a[lanesC:] {
		b := (*[lanesC]complex64)(a)
		for j := range lanesC {
			x, y := re[j], im[j]
			c, d := float64(real(b[j])), float64(imag(b[j]))
			re[j] = float64(x*c) - float64(y*d)
			im[j] = float64(x*d) + float64(y*c)
		}
	}
	return p
}

// blocksC128 is blocksC64 for complex128: the Go twin of the complex128
// block kernels.
func blocksC128(a []complex128) (p [lanes8]float64) {
	re, im := (*[lanesC]float64)(p[:lanesC]), (*[lanesC]float64)(p[lanesC:])
	if len(a) < lanesC {
		return p // not called so; the lanes are then meaningless
	}
	for j, v := range a[:lanesC] {
		re[j], im[j] = real(v), imag(v)
	}
	for a = a[lanesC:]; len(a) >= lanesC; a = a[lanesC:] {
		b := (*[lanesC]complex128)(a)
		for j := range lanesC {
			x, y := re[j], im[j]
			c, d := real(b[j]), imag(b[j])
			re[j] = float64(x*c) - float64(y*d)
			im[j] = float64(x*d) + float64(y*c)
		}
	}
	return p
}
