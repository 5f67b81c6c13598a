package sparse

import "github.com/tensor-go/tensor/internal/cmul"

// Every product is rounded on its own before it is added, in every loop:
// Go may fuse x*y + z into one multiply-add (arm64, ppc64le, s390x,
// riscv64, and amd64 built with GOAMD64=v3) and does so in some loops and
// not in others, so the same product would round differently in the dense
// and the sorting accumulator, in the row kernels and the scatter loops,
// and on different machines. For real types the conversion T(x*y) rounds
// the product. A complex product fuses inside its own formula (ac − bd,
// ad + bc), which no conversion of the whole reaches, so the complex
// types multiply through package cmul, which rounds each part.

// productOf returns the function that multiplies two T with every
// rounding explicit, for the complex types, and nil for the others (which
// use T(x*y)). Loops look it up once, not per element.
func productOf[T Number]() func(x, y T) T {
	var z T
	switch any(z).(type) {
	case complex64:
		return any(cmul.Mul64).(func(x, y T) T)
	case complex128:
		return any(cmul.Mul128).(func(x, y T) T)
	}
	return nil
}

// product returns x·y rounded to T; cmul is productOf[T]().
func product[T Number](x, y T, cmul func(x, y T) T) T {
	if cmul != nil {
		return cmul(x, y)
	}
	return T(x * y)
}
