package tensor

import (
	"fmt"
	"testing"
)

// Prod's gradient over each axis of a large float32 matrix, beside the
// forward Prod it differentiates (the gradient's target is ≤ 4× it).
func BenchmarkExclusiveProd4096(b *testing.B) {
	x := Must(Rand(5, Float32, 0.999, 1.001, 4096, 4096))
	for axis := range 2 {
		g := Must(Prod(x, Axis(axis)))
		b.Run(fmt.Sprintf("axis%d/prod", axis), func(b *testing.B) {
			for range b.N {
				Must(Prod(x, Axis(axis)))
			}
		})
		b.Run(fmt.Sprintf("axis%d/exclusive", axis), func(b *testing.B) {
			for range b.N {
				Must(ExclusiveProd(x, Axis(axis)))
			}
		})
		b.Run(fmt.Sprintf("axis%d/exclusive_mul", axis), func(b *testing.B) {
			for range b.N {
				Must(ExclusiveProdMul(x, g, Axis(axis)))
			}
		})
	}
}
