package vec

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestMulWithSum checks MulWithSumF32 and MulWithSumF64 under every kernel
// set, the Go twin included, streaming or not, against the loops their
// comments write out, bit for bit: every length up to three unrolled
// AVX-512 steps and random longer ones, every alignment of out (the
// streaming kernels start at its first 64-byte boundary), specials among
// the elements, and guard elements around out and acc that must be left
// alone.
func TestMulWithSum(t *testing.T) {
	forMulSumCases(t, 41, func(name string, r *rand.Rand, n, off int, stream bool) {
		checkMulWithSum(t, name+"/f32", r, n, off, stream, randF32, MulWithSumF32,
			func(g, u, v float32, acc float64) (float32, float64) { return g * u, acc + float64(g*v) })
		checkMulWithSum(t, name+"/f64", r, n, off, stream, randF64, MulWithSumF64,
			func(g, u, v float64, acc float64) (float64, float64) { return g * u, acc + float64(g*v) })
	})
}

// forMulSumCases calls check under every kernel set of the family, the Go
// twin included, streaming or not, at every length testLengths gives and
// the alignments testOffsets gives for it.
func forMulSumCases(t *testing.T, seed uint64, check func(name string, r *rand.Rand, n, off int, stream bool)) {
	defer func(saved mulSumKernels) { mulSumImpl = saved }(mulSumImpl)
	r := rand.New(rand.NewPCG(seed, seed+1))
	for _, v := range mulSumTable.Variants() {
		mulSumImpl = v.K
		for _, stream := range []bool{false, true} {
			name := fmt.Sprintf("%s/stream=%v", v.Name(), stream)
			for _, n := range testLengths(r, 4) {
				for _, off := range testOffsets(n) {
					check(name, r, n, off, stream)
				}
			}
		}
	}
}

func checkMulWithSum[T float32 | float64](t *testing.T, name string, r *rand.Rand, n, off int, stream bool,
	gen func(*rand.Rand) T, kernel func(out, g, u, v []T, acc []float64, stream bool),
	step func(g, u, v T, acc float64) (T, float64)) {
	t.Helper()
	fill := func() T { return gen(r) }
	g, _ := sliceAt(n, (off+3)%16, fill)
	u, _ := sliceAt(n, (off+5)%16, fill)
	v, _ := sliceAt(n, (off+7)%16, fill)
	out, outBuf := sliceAt(n, off, fill)
	acc, accBuf := sliceAt(n, (off+1)%16, func() float64 { return randF64(r) })
	wantOut, wantAcc := make([]T, n), make([]float64, n)
	for i := range n {
		wantOut[i], wantAcc[i] = step(g[i], u[i], v[i], acc[i])
	}
	savedOut, savedAcc := append([]T(nil), outBuf...), append([]float64(nil), accBuf...)
	kernel(out, g, u, v, acc, stream)
	FenceStreaming()
	for i := range n {
		if !sameF64(float64(out[i]), float64(wantOut[i])) {
			t.Fatalf("%s n=%d off=%d: out[%d] = %v, want %v", name, n, off, i, out[i], wantOut[i])
		}
		if !sameF64(acc[i], wantAcc[i]) {
			t.Fatalf("%s n=%d off=%d: acc[%d] = %v, want %v", name, n, off, i, acc[i], wantAcc[i])
		}
	}
	checkGuards(t, name+" out", n, off, outBuf, savedOut)
	checkGuards(t, name+" acc", n, (off+1)%16, accBuf, savedAcc)
}

// checkGuards fails when an element of buf outside its n elements at off
// differs from saved.
func checkGuards[T float32 | float64](t *testing.T, name string, n, off int, buf, saved []T) {
	t.Helper()
	for i := range buf {
		if (i < guard+off || i >= guard+off+n) && !sameF64(float64(buf[i]), float64(saved[i])) {
			t.Fatalf("%s n=%d off=%d: guard element %d changed", name, n, off, i)
		}
	}
}

// TestMulScalarPair checks MulScalarPairF32 and MulScalarPairF64 the same
// way: every set, streaming or not, every length and alignment, specials,
// guards around out and buf.
func TestMulScalarPair(t *testing.T) {
	forMulSumCases(t, 43, func(name string, r *rand.Rand, n, off int, stream bool) {
		checkMulScalarPair(t, name+"/f32", r, n, off, stream, randF32, MulScalarPairF32)
		checkMulScalarPair(t, name+"/f64", r, n, off, stream, randF64, MulScalarPairF64)
	})
}

func checkMulScalarPair[T float32 | float64](t *testing.T, name string, r *rand.Rand, n, off int, stream bool,
	gen func(*rand.Rand) T, kernel func(out, buf, g, v []T, s T, stream bool)) {
	t.Helper()
	fill := func() T { return gen(r) }
	g, _ := sliceAt(n, (off+3)%16, fill)
	v, _ := sliceAt(n, (off+7)%16, fill)
	out, outBuf := sliceAt(n, off, fill)
	buf, bufBuf := sliceAt(n, (off+9)%16, fill)
	s := gen(r)
	savedOut, savedBuf := append([]T(nil), outBuf...), append([]T(nil), bufBuf...)
	kernel(out, buf, g, v, s, stream)
	FenceStreaming()
	for i := range n {
		if want := g[i] * s; !sameF64(float64(out[i]), float64(want)) {
			t.Fatalf("%s n=%d off=%d: out[%d] = %v, want %v", name, n, off, i, out[i], want)
		}
		if want := g[i] * v[i]; !sameF64(float64(buf[i]), float64(want)) {
			t.Fatalf("%s n=%d off=%d: buf[%d] = %v, want %v", name, n, off, i, buf[i], want)
		}
	}
	checkGuards(t, name+" out", n, off, outBuf, savedOut)
	checkGuards(t, name+" buf", n, (off+9)%16, bufBuf, savedBuf)
}
