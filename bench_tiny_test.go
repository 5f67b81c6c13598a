package tensor

import "testing"

// BenchmarkTiny times calls on a few thousand elements or fewer, where the
// fixed cost of a call (checks, the result's header and memory, choosing
// a path) decides rather than the kernel: one case per op family, plain
// loops dropping their result as users write them. Read allocs/op beside
// ns/op: every allocation here is per-call cost.
func BenchmarkTiny(b *testing.B) {
	f32 := func(seed uint64, s ...int) *Tensor { return sweepOperand(b, seed, Float32, s, false) }
	f64 := func(seed uint64, s ...int) *Tensor { return sweepOperand(b, seed, Float64, s, false) }
	x, y := f32(1, 4096), f32(2, 4096)
	xd, yd := f64(1, 1000), f64(2, 1000)
	yi := sweepOperand(b, 2, Int32, []int{4096}, false)
	m, row := f32(1, 64, 64), f32(2, 64)
	m4, n4 := f32(1, 4, 4), f32(2, 4, 4)
	m16, n16 := f32(1, 16, 16), f32(2, 16, 16)
	b3, c3 := f32(1, 8, 3, 3), f32(2, 8, 3, 3)
	col, line := f32(1, 64, 1), f32(2, 1, 64)
	m100, row100 := f32(1, 100, 100), f32(2, 100)
	cube, col10 := f32(1, 10, 10, 10), f32(2, 10, 1)
	mT := sweepOperand(b, 1, Float32, []int{64, 64}, true)
	cases := []struct {
		name string
		call func() (*Tensor, error)
	}{
		{"mul/f32/4096", func() (*Tensor, error) { return Mul(x, y) }},
		{"mul/f64/1000", func() (*Tensor, error) { return Mul(xd, yd) }},
		{"add/f32/4096", func() (*Tensor, error) { return Add(x, y) }},
		{"sub/f32/4096", func() (*Tensor, error) { return Sub(x, y) }},
		{"mul/f32/4096*scalar", func() (*Tensor, error) { return Mul(x, 2.0) }},
		{"mul/f32/64x64*row", func() (*Tensor, error) { return Mul(m, row) }},
		{"mul/f32/64x1*1x64", func() (*Tensor, error) { return Mul(col, line) }},
		{"mul/f32/100x100*row", func() (*Tensor, error) { return Mul(m100, row100) }},
		{"mul/f32/10x10x10*10x1", func() (*Tensor, error) { return Mul(cube, col10) }},
		{"mul/f32/transposed64", func() (*Tensor, error) { return Mul(mT, m) }},
		{"add/f32/64x64*row", func() (*Tensor, error) { return Add(m, row) }},
		{"mul/f32*i32/4096", func() (*Tensor, error) { return Mul(x, yi) }},
		{"neg/f32/4096", func() (*Tensor, error) { return Neg(x) }},
		{"astype/f32-f64/4096", func() (*Tensor, error) { return x.AsType(Float64) }},
		{"sum/f32/all4096", func() (*Tensor, error) { return Sum(x) }},
		{"sum/f32/axis1-64x64", func() (*Tensor, error) { return Sum(m, Axis(1)) }},
		{"prod/f32/all4096", func() (*Tensor, error) { return Prod(x) }},
		{"prod/f32/axis0-64x64", func() (*Tensor, error) { return Prod(m, Axis(0)) }},
		{"reshape/4096-64x64", func() (*Tensor, error) { return x.Reshape(64, 64) }},
		{"transpose/64x64", func() (*Tensor, error) { return m.Transpose(), nil }},
		{"slice/64x64", func() (*Tensor, error) { return m.Slice(Span(16, 48), All()) }},
		{"matmul/f32/4x4x4", func() (*Tensor, error) { return Matmul(m4, n4) }},
		{"matmul/f32/16x16x16", func() (*Tensor, error) { return Matmul(m16, n16) }},
		{"matmul/f32/batch8x3x3", func() (*Tensor, error) { return Matmul(b3, c3) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu, faults := cpuMarks(b)
			for b.Loop() {
				if _, err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, faults)
		})
	}
}

// BenchmarkTinyFixed times calls on 16 elements (4×4 for the broadcast and
// the axis reduction), where the kernels' work is a few nanoseconds and
// the figure is the path from the call to the kernel and the result's
// allocation alone; MulInto has no allocation at all.
func BenchmarkTinyFixed(b *testing.B) {
	x, y := sweepOperand(b, 1, Float32, []int{16}, false), sweepOperand(b, 2, Float32, []int{16}, false)
	m, row := sweepOperand(b, 1, Float32, []int{4, 4}, false), sweepOperand(b, 2, Float32, []int{4}, false)
	out := sweepOperand(b, 3, Float32, []int{16}, false)
	cases := []struct {
		name string
		call func() error
	}{
		{"mul", func() error { _, err := Mul(x, y); return err }},
		{"mulinto", func() error { return MulInto(out, x, y) }},
		{"mul*scalar", func() error { _, err := Mul(x, 2.0); return err }},
		{"mul4x4*row", func() error { _, err := Mul(m, row); return err }},
		{"neg", func() error { _, err := Neg(x); return err }},
		{"astype", func() error { _, err := x.AsType(Float64); return err }},
		{"sum", func() error { _, err := Sum(x); return err }},
		{"prod", func() error { _, err := Prod(x); return err }},
		{"sum4x4axis1", func() error { _, err := Sum(m, Axis(1)); return err }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu, faults := cpuMarks(b)
			for b.Loop() {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, faults)
		})
	}
}
