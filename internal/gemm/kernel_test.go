package gemm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// kernelsUnderTest lists the distinct micro-kernels of the kernel sets this
// machine runs, the Go ones (checked against a fresh twin) among them.
func kernelsUnderTest() (f32 []*kernel[float32], f64 []*kernel[float64], i32 []*kernel[int32], i64 []*kernel[int64]) {
	for _, v := range kernelSets.Variants() {
		f32 = appendNew(f32, v.K.f32)
		f64 = appendNew(f64, v.K.f64)
		i32 = appendNew(i32, v.K.i32)
		i64 = appendNew(i64, v.K.i64)
	}
	for _, k := range passedOverF32 {
		f32 = appendNew(f32, k)
	}
	for _, k := range passedOverF64 {
		f64 = appendNew(f64, k)
	}
	return f32, f64, i32, i64
}

// appendNew appends k to ks unless it is there already.
func appendNew[T Elem](ks []*kernel[T], k *kernel[T]) []*kernel[T] {
	if slices.Contains(ks, k) {
		return ks
	}
	return append(ks, k)
}

// special values sprinkled into kernel inputs: NaN, ±Inf, −0 must go through
// the assembly exactly as through the twin.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0}

// fill returns n random elements; for floats about 1 in 16 is special when
// withSpecials.
func fill[T Elem](rng *rand.Rand, n int, withSpecials bool) []T {
	s := make([]T, n)
	for i := range s {
		switch {
		case isFloat[T]() && withSpecials && rng.IntN(16) == 0:
			s[i] = fromFloat[T](specials[rng.IntN(len(specials))])
		case isFloat[T]():
			s[i] = fromFloat[T](rng.Float64()*2 - 1)
		default:
			// Large integers so products and sums wrap.
			s[i] = T(int32(rng.Uint32()))
			if rng.IntN(2) == 0 {
				s[i] = T(rng.IntN(7) - 3)
			}
		}
	}
	return s
}

func isFloat[T Elem]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

// fromFloat converts through float64 so NaN and Inf survive for floats.
func fromFloat[T Elem](x float64) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(x)).(T)
	case float64:
		return any(x).(T)
	}
	return T(int64(x))
}

func toFloat[T Elem](x T) float64 { return float64(x) }

// sameValue reports whether got matches want: exactly for integers, within
// tol for floats, with NaN matching NaN and infinities matching exactly.
func sameValue[T Elem](got, want T, tol float64) bool {
	g, w := toFloat(got), toFloat(want)
	if !isFloat[T]() {
		return got == want
	}
	if math.IsNaN(w) || math.IsNaN(g) {
		return math.IsNaN(w) && math.IsNaN(g)
	}
	if math.IsInf(w, 0) || math.IsInf(g, 0) {
		return g == w
	}
	return math.Abs(g-w) <= tol
}

const guard = 8 // sentinel elements before and after every output

func sentinel[T Elem]() T { return fromFloat[T](12345) }

// microRef is the microKernel doc comment's loop, with each product
// rounded before it is added as in the Go kernels: the reference every
// micro-kernel is checked against.
func microRef[T Elem](mr, nr int) microKernel[T] {
	return func(k int, a, b, c *T, ldc int, accumulate bool) {
		ap, bp := unsafe.Slice(a, k*mr), unsafe.Slice(b, k*nr)
		size := int(unsafe.Sizeof(*a))
		for i := 0; i < mr; i++ {
			row := unsafe.Slice((*T)(unsafe.Add(unsafe.Pointer(c), i*ldc*size)), nr)
			for j := 0; j < nr; j++ {
				var sum T
				for p := 0; p < k; p++ {
					sum += T(ap[p*mr+i] * bp[p*nr+j])
				}
				if accumulate {
					sum = row[j] + sum
				}
				row[j] = sum
			}
		}
	}
}

// checkKernel runs micro against its Go twin for every kc in 0..3 unrolls
// plus a few random larger ones, both with and without accumulate, for a
// positive and a negative row stride, with guard regions around C.
func checkKernel[T Elem](t *testing.T, kern *kernel[T]) {
	checkKernelTwin(t, kern, microRef[T](kern.mr, kern.nr))
}

// checkKernelTwin is checkKernel against the reference twin.
func checkKernelTwin[T Elem](t *testing.T, kern *kernel[T], twin microKernel[T]) {
	rng := rand.New(rand.NewPCG(1, uint64(kern.mr*100+kern.nr)))
	mr, nr := kern.mr, kern.nr
	tol := 1e-4
	if kern.name[:3] == "go-" {
		tol = 0 // the same sums in the same order, rounded alike
	}
	ks := []int{}
	for kc := 0; kc <= 3*4+1; kc++ {
		ks = append(ks, kc)
	}
	ks = append(ks, 37, 100, 255)
	for _, kc := range ks {
		for _, accumulate := range []bool{false, true} {
			for _, ldc := range []int{nr, nr + 3, -(nr + 5)} {
				front := guard + rng.IntN(16) // every alignment of C over the trials
				a := fill[T](rng, kc*mr, true)
				b := fill[T](rng, kc*nr, true)
				span := (mr-1)*abs(ldc) + nr
				old := fill[T](rng, span, true)
				want := kernelRun(twin, kc, a, b, old, front, ldc, mr, accumulate)
				got := kernelRun(kern.micro, kc, a, b, old, front, ldc, mr, accumulate)
				for i := range got {
					if i < front || i >= front+span {
						if got[i] != sentinel[T]() {
							t.Fatalf("%s kc=%d ldc=%d: guard element %d overwritten", kern.name, kc, ldc, i)
						}
						continue
					}
					inTile := (i-front)%abs(ldc) < nr
					if !inTile {
						if !sameValue(got[i], old[i-front], 0) {
							t.Fatalf("%s kc=%d ldc=%d: gap element %d changed", kern.name, kc, ldc, i)
						}
						continue
					}
					if !sameValue(got[i], want[i], tol*float64(kc+1)) {
						t.Fatalf("%s kc=%d ldc=%d acc=%v: element %d = %v, twin %v", kern.name, kc, ldc, accumulate, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// kernelRun runs one micro-kernel call on a copy of old placed front
// elements into a buffer of sentinels (guard more after it) and returns the
// whole buffer.
func kernelRun[T Elem](micro microKernel[T], kc int, a, b, old []T, front, ldc, mr int, accumulate bool) []T {
	buf := make([]T, front+len(old)+guard)
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	copy(buf[front:], old)
	start := front
	if ldc < 0 {
		start += (mr - 1) * -ldc
	}
	// Non-empty slivers even for kc = 0 so the pointers are valid.
	a = append(a, 0)
	b = append(b, 0)
	micro(kc, &a[0], &b[0], &buf[start], ldc, accumulate)
	return buf
}

func abs(x int) int { return max(x, -x) }

func TestMicroKernels(t *testing.T) {
	f32, f64, i32, i64 := kernelsUnderTest()
	for _, k := range f32 {
		checkKernel(t, k)
	}
	for _, k := range f64 {
		checkKernel(t, k)
	}
	for _, k := range i32 {
		checkKernel(t, k)
	}
	for _, k := range i64 {
		checkKernel(t, k)
	}
}

// checkKernelRowA runs the in-place-A variant against its Go twin with row
// strides of A that are positive, negative and wider than k.
func checkKernelRowA[T Elem](t *testing.T, kern *kernel[T]) {
	if kern.microRowA != nil {
		checkRowA(t, kern.name, kern.microRowA, kern.mr, kern.nr)
	}
	if kern.microRowA4 != nil {
		checkRowA(t, kern.name+"/4-row", kern.microRowA4, 4, kern.nr)
	}
}

func checkRowA[T Elem](t *testing.T, name string, micro microKernelRowA[T], mr, nr int) {
	checkRowATwin(t, name, micro, mr, nr, microGoRowA[T](mr, nr))
}

// checkRowATwin is checkRowA against the reference twin.
func checkRowATwin[T Elem](t *testing.T, name string, micro microKernelRowA[T], mr, nr int, twin microKernelRowA[T]) {
	rng := rand.New(rand.NewPCG(3, uint64(mr*100+nr)))
	for kc := 0; kc <= 3*4+1; kc++ {
		for _, accumulate := range []bool{false, true} {
			for _, lda := range []int{kc, kc + 7, -(kc + 2)} {
				a := fill[T](rng, mr*abs(lda)+kc+1, true)
				aoff := 0
				if lda < 0 {
					aoff = (mr - 1) * -lda
				}
				b := fill[T](rng, kc*nr+1, true)
				ldc := nr + 1
				span := (mr-1)*ldc + nr
				old := fill[T](rng, span, true)
				run := func(micro microKernelRowA[T]) []T {
					buf := make([]T, span+2*guard)
					for i := range buf {
						buf[i] = sentinel[T]()
					}
					copy(buf[guard:], old)
					micro(kc, &a[aoff], &b[0], &buf[guard], ldc, lda, accumulate)
					return buf
				}
				want, got := run(twin), run(micro)
				for i := range got {
					if !sameValue(got[i], want[i], 1e-4*float64(kc+1)) {
						t.Fatalf("%s row-A kc=%d lda=%d acc=%v: element %d = %v, twin %v", name, kc, lda, accumulate, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestMicroKernelsRowA(t *testing.T) {
	f32, f64, i32, i64 := kernelsUnderTest()
	for _, k := range i64 {
		checkKernelRowA(t, k)
	}
	for _, k := range f32 {
		checkKernelRowA(t, k)
	}
	for _, k := range f64 {
		checkKernelRowA(t, k)
	}
	for _, k := range i32 {
		checkKernelRowA(t, k)
	}
}
