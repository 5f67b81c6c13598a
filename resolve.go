package tensor

import "github.com/tensor-go/tensor/shape"

// ReduceAxes resolves the options of a reduction (Prod, Sum) for x as the
// reduction itself does: which dimensions are reduced and whether they are
// kept as size 1. It fails where the reduction would, with ErrAxis. Package
// autograd uses it to map a reduction's gradient back.
func ReduceAxes(x *Tensor, opts ...ReduceOption) (mask []bool, keepDims bool, err error) {
	if x == nil {
		return nil, false, opErr("reduce", ErrValue, "nil tensor")
	}
	var c reduceConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	mask = make([]bool, len(x.shape))
	if !c.axesSet {
		for i := range mask {
			mask[i] = true
		}
	}
	for _, a := range c.axes {
		n, err := shape.NormalizeAxis(a, len(x.shape))
		if err != nil {
			return nil, false, opErr("reduce", ErrAxis, "axis %d is out of range for shape %s", a, shape.String(x.shape))
		}
		if mask[n] {
			return nil, false, opErr("reduce", ErrAxis, "axis %d is repeated in %v for shape %s", a, c.axes, shape.String(x.shape))
		}
		mask[n] = true
	}
	return mask, c.keepDims, nil
}

// MatmulPrecisionOf returns the precision a Matmul called now with opts
// would use: the per-call option if given, else the process-wide setting.
// Package autograd records it so that a product's backward runs as its
// forward did.
func MatmulPrecisionOf(opts ...MatmulOption) (Precision, error) {
	cfg, err := resolveMatmulOptions(opts)
	return cfg.precision, err
}
