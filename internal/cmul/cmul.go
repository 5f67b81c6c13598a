// Package cmul is the complex product every kernel of the library uses
// where results must not depend on the machine: the textbook formula with
// each real product rounded before the sum. Go's own x*y is the same
// formula, but the compiler may fuse ac − bd or ad + bc into one
// multiply-add (arm64, ppc64le, s390x, riscv64, amd64 with GOAMD64=v3), and
// does so in some loops and not in others. The explicit conversions forbid
// that. No infinity is recovered from a NaN part (as Go's x*y, unlike C's
// Annex G).
package cmul

// Mul64 returns x·y for complex64, each product rounded to float32.
func Mul64(x, y complex64) complex64 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	return complex(float32(a*c)-float32(b*d), float32(a*d)+float32(b*c))
}

// Mul128 returns x·y for complex128, each product rounded to float64.
func Mul128(x, y complex128) complex128 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	return complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c))
}
