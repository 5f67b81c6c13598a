package gemm

import "testing"

// TestColumnCut checks the column ranges of a wide C, one per goroutine in
// the tiles left of the strip, and the share of the widest.
func TestColumnCut(t *testing.T) {
	for _, tc := range []struct {
		n, strip, nr, threads int
		step, parts           int
		share                 float64
	}{
		{64, 0, 32, 2, 32, 2, 0.5},         // two tiles
		{100, 4, 32, 2, 64, 2, 0.64},       // three tiles and a strip
		{129, 1, 32, 2, 64, 2, 65.0 / 129}, // four tiles and a one-column strip
		{100, 4, 16, 2, 48, 2, 0.52},       // float64's six tiles
		{1000, 8, 32, 2, 512, 2, 0.512},    // one range per goroutine
		{200, 8, 32, 2, 96, 2, 0.52},       // six tiles and a strip
		{40, 8, 32, 2, 32, 1, 1},           // one tile and a strip
		{96, 0, 32, 4, 32, 3, 1.0 / 3},     // fewer tiles than goroutines
		{30, 0, 32, 2, 32, 1, 1},           // one partial tile
		{112, 16, 32, 2, 64, 2, 64.0 / 112},
	} {
		j := job[float32]{kern: &kernel[float32]{mr: 12, nr: tc.nr}, m: 100, n: tc.n, strip: tc.strip}
		step, parts, share := j.columnCut(tc.threads)
		if step != tc.step || parts != tc.parts || share != tc.share {
			t.Errorf("n %d strip %d nr %d threads %d: step %d parts %d share %v, want %d %d %v",
				tc.n, tc.strip, tc.nr, tc.threads, step, parts, share, tc.step, tc.parts, tc.share)
		}
	}
}

// TestWideCutByRows checks when a wide C is cut by rows instead: only when
// the column ranges are uneven by more than the extra packing costs.
func TestWideCutByRows(t *testing.T) {
	for _, tc := range []struct {
		m, n, strip, nr int
		rows            bool
	}{
		{96, 96, 0, 32, true},    // 0.5 + 0.15 against 0.67
		{100, 100, 4, 32, false}, // 0.52 + 0.15 against 0.64
		{64, 64, 0, 32, false},   // two even tiles
		{127, 129, 1, 32, false}, // four tiles, even
		{100, 100, 4, 16, false}, // float64: six tiles
		{40, 40, 8, 32, true},    // one tile
		{112, 112, 16, 32, false},
		{1000, 1000, 8, 32, false},
	} {
		j := job[float32]{kern: &kernel[float32]{mr: 12, nr: tc.nr}, m: tc.m, n: tc.n, strip: tc.strip}
		_, _, cols := j.columnCut(2)
		if got := j.rowShare(2)+rowSplitCost < cols; got != tc.rows {
			t.Errorf("%d×%d strip %d nr %d: by rows %v, want %v", tc.m, tc.n, tc.strip, tc.nr, got, tc.rows)
		}
	}
}
