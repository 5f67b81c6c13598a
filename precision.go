package tensor

import (
	"fmt"
	"sync/atomic"
)

// Precision selects how float32 matrix products are computed.
//
// Only float32 products (including float32 operands reached by promotion,
// such as int32@float32) are affected. float64, the 16-bit floats (which
// already accumulate in float32 from exact operands), complex64 and
// complex128, and the integer and bool dtypes are always computed at full
// precision.
type Precision int

const (
	// Highest computes float32 products as exact IEEE float32: every
	// product and every sum rounds to float32. It is the default, as in
	// PyTorch 1.12 and later.
	Highest Precision = iota
	// TF32 first rounds each float32 operand element to TF32 (float32's
	// 8 exponent bits with 10 mantissa bits, round to nearest, ties to even;
	// NaN and ±Inf unchanged), then multiplies and accumulates in float32,
	// as GPUs' tensor cores do; results are those of Highest on the rounded
	// operands.
	//
	// On a CPU it is a reproducibility mode, not a speed-up: no CPU
	// instruction multiplies TF32, so the rounding is extra work done in
	// software before an ordinary float32 product, and a TF32 product is
	// slower than a Highest one (2–6× for a 256×129×128 product on the
	// machines we measure; see BenchmarkMatmulPrecision). Choose it to
	// reproduce, on the CPU, the numerics of a model trained or served on
	// GPUs with TF32 enabled (PyTorch's allow_tf32, JAX's "tensorfloat32"),
	// at the cost of about three decimal digits of the operands.
	TF32
)

// String returns "highest" or "tf32".
func (p Precision) String() string {
	switch p {
	case Highest:
		return "highest"
	case TF32:
		return "tf32"
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}

func (p Precision) valid() bool { return p == Highest || p == TF32 }

// matmulPrecision is the process-wide default; atomic because any goroutine
// may change it while others multiply.
var matmulPrecision atomic.Int64

// SetMatmulPrecision sets the process-wide precision of float32 matrix
// products for calls that pass neither WithPrecision nor a MatmulConfig.
// It is meant for a program's start (a flag, an environment setting); code
// that must not depend on what the rest of the program chose passes its
// precision explicitly. It fails with ErrValue
// for a value that is neither Highest nor TF32.
func SetMatmulPrecision(p Precision) error {
	if !p.valid() {
		return opErr("set_matmul_precision", ErrValue, "unknown precision %v", p)
	}
	matmulPrecision.Store(int64(p))
	return nil
}

// MatmulPrecision returns the process-wide precision set by
// SetMatmulPrecision (Highest unless changed).
func MatmulPrecision() Precision { return Precision(matmulPrecision.Load()) }

// Precision has three scopes, narrowest first: an option of one call
// (WithPrecision), an explicit MatmulConfig value that a program passes to
// the code that multiplies (each goroutine or request its own), and the
// process-wide default (SetMatmulPrecision), which only calls with neither
// see. A config or an option never reads or changes the process-wide
// setting, so code that holds one gets the same numerics whatever other
// code sets.

// MatmulConfig is an explicit set of matmul settings: a value, not
// process state, so that two goroutines (two requests, two models) can
// multiply at different precisions at once. Its zero value is Highest
// precision, whatever SetMatmulPrecision set.
type MatmulConfig struct {
	Precision Precision
}

// Option returns c as an option of one call, for Matmul, MatmulInto and
// whatever else takes MatmulOptions (the autograd tape's Matmul). Options
// after it in the same call override it.
func (c MatmulConfig) Option() MatmulOption {
	return func(m *matmulConfig) { m.precision = c.Precision }
}

// Matmul is tensor.Matmul with c's settings; opts apply after them.
func (c MatmulConfig) Matmul(a, b *Tensor, opts ...MatmulOption) (*Tensor, error) {
	return Matmul(a, b, append([]MatmulOption{c.Option()}, opts...)...)
}

// MatmulInto is tensor.MatmulInto with c's settings; opts apply after them.
func (c MatmulConfig) MatmulInto(out, a, b *Tensor, opts ...MatmulOption) error {
	return MatmulInto(out, a, b, append([]MatmulOption{c.Option()}, opts...)...)
}

// MatmulOption adjusts one call of Matmul or MatmulInto.
type MatmulOption func(*matmulConfig)

// matmulConfig is what the options of one call resolve to.
type matmulConfig struct {
	precision Precision
}

// WithPrecision makes one call use precision p instead of the process-wide
// setting.
func WithPrecision(p Precision) MatmulOption {
	return func(c *matmulConfig) { c.precision = p }
}

// resolveMatmulOptions applies opts over the process-wide defaults.
func resolveMatmulOptions(opts []MatmulOption) (matmulConfig, error) {
	if len(opts) == 0 {
		// The usual call returns before cfg, which the options' calls make
		// escape to the heap, is allocated.
		return matmulConfig{precision: MatmulPrecision()}, nil
	}
	cfg := matmulConfig{precision: MatmulPrecision()}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if !cfg.precision.valid() {
		return cfg, opErr("matmul", ErrValue, "unknown precision %v", cfg.precision)
	}
	return cfg, nil
}
