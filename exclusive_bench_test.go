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

// BenchmarkExclusiveRowsInPlace compares Prod's gradient along float32
// rows through the four-row passes in place and through the transposed
// strips, on rows of several lengths, in process CPU (the choice is
// vec.ExclusiveRowsPreferred's, measured with this).
func BenchmarkExclusiveRowsInPlace(b *testing.B) {
	defer func(saved func() bool) { rowsInPlace = saved }(rowsInPlace)
	for _, s := range [][2]int{{1 << 18, 16}, {1 << 16, 64}, {10000, 100}, {1000, 1000}, {4096, 4096}, {64, 65536}} {
		x := Must(Rand(5, Float32, 0.999, 1.001, s[0], s[1]))
		g := Must(Prod(x, Axis(1)))
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dx%d/inplace=%v", s[0], s[1], on), func(b *testing.B) {
				rowsInPlace = func() bool { return on }
				c0, f0 := cpuMarks(b)
				for range b.N {
					Must(ExclusiveProdMul(x, g, Axis(1)))
				}
				reportCPU(b, c0, f0)
			})
		}
	}
}

// BenchmarkExclusiveAxis0Ways compares Prod's gradient down the columns of
// tall float32 groups in row bands, in bands of strips and in the blocked
// passes, beside the forward Prod, in process CPU (rowBandsFor and
// rowBandsMinPiece were chosen with this).
func BenchmarkExclusiveAxis0Ways(b *testing.B) {
	defer func(saved func() int) { tallStripRows = saved }(tallStripRows)
	defer func(saved func(groups, int) bool) { rowBandsFor = saved }(rowBandsFor)
	strips, rowBands := tallStripRows, rowBandsFor
	for _, s := range [][2]int{{4096, 4096}, {16384, 1024}, {4096, 512}} {
		x := Must(Rand(5, Float32, 0.999, 1.001, s[0], s[1]))
		g := Must(Prod(x, Axis(0)))
		b.Run(fmt.Sprintf("%dx%d/prod", s[0], s[1]), func(b *testing.B) {
			for range b.N {
				Must(Prod(x, Axis(0)))
			}
		})
		for _, way := range []string{"rowbands", "bands", "blocked"} {
			b.Run(fmt.Sprintf("%dx%d/%s", s[0], s[1], way), func(b *testing.B) {
				tallStripRows, rowBandsFor = strips, rowBands
				switch way {
				case "rowbands":
					rowBandsFor = func(groups, int) bool { return true }
				case "bands":
					rowBandsFor = func(groups, int) bool { return false }
				case "blocked":
					tallStripRows = func() int { return 0 }
				}
				c0, f0 := cpuMarks(b)
				for range b.N {
					Must(ExclusiveProdMul(x, g, Axis(0)))
				}
				reportCPU(b, c0, f0)
			})
		}
	}
}

// BenchmarkExclusiveRowStrips compares Prod's gradient along float32 rows
// of transposed strips computed in bands (a marks pass first) and in one
// kernel call per strip, its prefix products spilling from L2, in process
// CPU (wholeStripOn was decided with this). Rows from transposedMaxRow to
// transposedMaxBandedRow on a 1 MiB L2; on a larger L2 the shorter ones
// take one call either way.
func BenchmarkExclusiveRowStrips(b *testing.B) {
	defer func(saved func() int) { transposedBandsAbove = saved }(transposedBandsAbove)
	for _, s := range [][2]int{{4096, 4096}, {2048, 6144}, {4096, 3072}, {8192, 2560}} {
		x := Must(Rand(5, Float32, 0.999, 1.001, s[0], s[1]))
		g := Must(Prod(x, Axis(1)))
		for _, way := range []string{"bands", "whole"} {
			b.Run(fmt.Sprintf("%dx%d/%s", s[0], s[1], way), func(b *testing.B) {
				transposedBandsAbove = transposedMaxRow
				if way == "whole" {
					transposedBandsAbove = transposedMaxBandedRow
				}
				c0, f0 := cpuMarks(b)
				for range b.N {
					Must(ExclusiveProdMul(x, g, Axis(1)))
				}
				reportCPU(b, c0, f0)
			})
		}
	}
}
