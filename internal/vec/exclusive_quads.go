package vec

// The exclusive products down the columns of four consecutive rows at a
// time, each pass running along the rows (Prod's gradient over a leading
// axis, computed band by band of whole rows): the running products of a
// piece of the rows' columns stay in the L1 cache, four rows share each
// load and store of them, and every stream is a run of contiguous lines
// that the hardware prefetches within its pages. The products and their
// roundings are those of ExclusiveColumnsF32, column by column in its
// order, so the bits are the same.

// Quad describes four rows of W = len(Run) columns for ExclusiveDown4F32
// and ExclusiveUp4F32: row r of X, Pre and O starts r·Stride elements on
// (one stride for all three, so that the kernels step one row pointer for
// them all); S is nil or the W factors of the columns.
//
// Ahead, when given, is four rows of the input computed next (Stride
// apart, W long): ExclusiveUp4F32 prefetches them into the L2 cache
// while it reads only the cache, so that the next band's first pass finds
// its input there. It changes no result. Stream stores O around the cache
// (where the caller knows it is far larger than the caches), which the
// kernels do only where every row is whole aligned 64-byte lines.
type Quad struct {
	X, Pre, O, S, Ahead []float32
	Run                 []float64
	Stride              int
	Stream              bool
}

// ExclusiveDown4F32 is the first pass over four rows: it stores each
// running product, rounded, in Pre and multiplies X in:
//
//	for r := range 4 { for j := range W { pre[r][j] = float32(run[j]); run[j] *= float64(x[r][j]) } }
func ExclusiveDown4F32(q *Quad) {
	w := q.width("ExclusiveDown4F32", false)
	if w > 0 {
		exclusiveImpl.down4(q, w)
	}
}

// ExclusiveUp4F32 is the second pass over four rows, from the last up:
//
//	for r := 3; r >= 0; r-- { for j := range W { o[r][j] = s[j] * float32(float64(pre[r][j])*run[j]); run[j] *= float64(x[r][j]) } }
//
// (without S, o[r][j] is the float32 product itself). O may be X itself:
// each element of x is read before its o is written.
func ExclusiveUp4F32(q *Quad) {
	w := q.width("ExclusiveUp4F32", true)
	if w > 0 {
		exclusiveImpl.up4(q, w)
	}
}

// width checks that q's rows lie within its slices and returns W.
func (q *Quad) width(op string, up bool) int {
	w := len(q.Run)
	if w == 0 {
		return 0
	}
	need := 3*q.Stride + w
	bad := q.Stride < w || len(q.X) < need || len(q.Pre) < need
	if up {
		bad = bad || len(q.O) < need || (q.S != nil && len(q.S) < w)
	}
	if bad {
		panic("vec: " + op + ": rows out of their slices")
	}
	return w
}

// aheadOK reports whether q.Ahead holds four rows to prefetch.
func (q *Quad) aheadOK(w int) bool { return len(q.Ahead) >= 3*q.Stride+w }

func down4Go(q *Quad, w int) {
	run := q.Run[:w]
	for r := range 4 {
		x, p := q.X[r*q.Stride:][:w], q.Pre[r*q.Stride:][:w]
		for j, v := range x {
			p[j] = float32(run[j])
			run[j] *= float64(v)
		}
	}
}

func up4Go(q *Quad, w int) {
	run := q.Run[:w]
	for r := 3; r >= 0; r-- {
		x, p, o := q.X[r*q.Stride:][:w], q.Pre[r*q.Stride:][:w], q.O[r*q.Stride:][:w]
		if q.S == nil {
			for j, v := range x { // v is read before o[j] is written: o may be x
				o[j] = float32(float64(p[j]) * run[j])
				run[j] *= float64(v)
			}
			continue
		}
		s := q.S[:w]
		for j, v := range x {
			e := float32(float64(p[j]) * run[j])
			o[j] = s[j] * e
			run[j] *= float64(v)
		}
	}
}

// tail returns q's columns from j on, W-j of them.
func (q *Quad) tail(j int) *Quad {
	t := *q
	t.X, t.Pre, t.Run, t.Ahead = q.X[j:], q.Pre[j:], q.Run[j:], nil
	if q.O != nil {
		t.O = q.O[j:]
	}
	if q.S != nil {
		t.S = q.S[j:]
	}
	return &t
}
