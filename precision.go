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
	// as GPUs' tensor cores do. It trades about three decimal digits of the
	// operands for speed where hardware supports it; results are those of
	// Highest on the rounded operands.
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
// products for calls that do not pass WithPrecision. It fails with ErrValue
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
