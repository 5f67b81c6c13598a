package ewise

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// TestColdOutputSameBytes checks that a cold output (Operand.Cold) stored
// around the caches holds the bytes of the same operation stored as usual,
// and nothing outside it: flat runs of every length up to past a few
// vectors, at every start within a cache line, one element broadcast,
// planned row broadcasts of whole-line and partial-line rows, and a tiled
// walk of a transposed input, on one and two threads.
func TestColdOutputSameBytes(t *testing.T) {
	defer func(b int) { ColdStreamBytes = b }(ColdStreamBytes)
	ColdStreamBytes = 0
	rng := rand.New(rand.NewPCG(15, 17))
	lengths := []int{3*iter.MinParallel + 17, 1000, 127, 128, 129, 1023, 1025, 2049}
	for n := 1; n <= 70; n++ {
		if n <= 20 || n%16 <= 2 || n%16 == 15 { // every vector edge, and the head before a 64-byte boundary
			lengths = append(lengths, n)
		}
	}
	pool := randomBytes(rng, 16*(3*iter.MinParallel+2048)) // operands are views of it
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, op := range []*Binary{Mul, Add, Sub, Neg, mulVia} {
			for _, dt := range []dtype.DType{dtype.Float32, dtype.Float64, dtype.Int32, dtype.Int8, dtype.Uint64,
				dtype.Complex64, dtype.Complex128, dtype.BFloat16, dtype.Float16} {
				size := dt.Size()
				for _, n := range lengths {
					a, b := pool[:n*size], pool[len(pool)-n*size:]
					for _, shift := range []int{0, 1, 64/size - 1} {
						if n > 4096 && shift > 0 {
							continue // the long run's starts are the short runs' (race lane time)
						}
						for _, scalar := range []bool{false, true} {
							bStride := size
							if scalar {
								bStride = 0
							}
							run := func(out unsafe.Pointer, cold bool) {
								op.Run(dt, n,
									Operand{Base: out, DType: dt, Stride: size, Cold: cold},
									Operand{Base: unsafe.Pointer(&a[0]), DType: dt, Stride: size},
									Operand{Base: unsafe.Pointer(&b[0]), DType: dt, Stride: bStride})
							}
							name := fmt.Sprintf("%s %v n=%d shift=%d scalar=%v procs=%d", op.Name, dt, n, shift, scalar, procs)
							compareCold(t, name, n*size, shift*size, run)
						}
					}
				}
				for _, cols := range []int{16, 256 / size * 4, 256/size*4 + 1} {
					rows := 3*iter.MinParallel/cols + 5
					n := rows * cols
					a, b := pool[:n*size], pool[len(pool)-cols*size:]
					run := func(out unsafe.Pointer, cold bool) {
						op.RunStrided(dt, []int{rows, cols}, n,
							Operand{Base: out, DType: dt, Cold: cold},
							Operand{Base: unsafe.Pointer(&a[0]), DType: dt},
							Operand{Base: unsafe.Pointer(&b[0]), DType: dt},
							[3][]int{{cols * size, size}, {cols * size, size}, {0, size}})
					}
					compareCold(t, fmt.Sprintf("%s %v %dx%d row broadcast procs=%d", op.Name, dt, rows, cols, procs), n*size, 0, run)
				}
				// A transposed input: a tiled walk, whose tiles' rows (not whole lines)
				// stream, with a partial last tile both ways.
				rows, cols := 3*iter.MinParallel/1024+37, 1024/size*2+64/size+1
				n := rows * cols
				a, b := pool[:n*size], pool[len(pool)-n*size:]
				run := func(out unsafe.Pointer, cold bool) {
					op.RunStrided(dt, []int{rows, cols}, n,
						Operand{Base: out, DType: dt, Cold: cold},
						Operand{Base: unsafe.Pointer(&a[0]), DType: dt},
						Operand{Base: unsafe.Pointer(&b[0]), DType: dt},
						[3][]int{{cols * size, size}, {cols * size, size}, {size, rows * size}})
				}
				compareCold(t, fmt.Sprintf("%s %v %dx%d transposed procs=%d", op.Name, dt, rows, cols, procs), n*size, 0, run)
			}
		}
	}
}

// TestColdMixedSameBytes is TestColdOutputSameBytes for operands of mixed
// dtypes, whose promoting kernels stream through a buffer: the fused
// float32 × int32 case, converted inputs, and an output of another dtype
// than the computation's; flat runs, a broadcast scalar and a planned row
// broadcast, on one and two threads.
func TestColdMixedSameBytes(t *testing.T) {
	defer func(b int) { ColdStreamBytes = b }(ColdStreamBytes)
	ColdStreamBytes = 0
	rng := rand.New(rand.NewPCG(21, 22))
	pool := randomBytes(rng, 16*(3*iter.MinParallel+2048))
	f32, f64, i32 := dtype.Float32, dtype.Float64, dtype.Int32
	mixes := [][4]dtype.DType{ // compute, out, a, b
		{f32, f32, f32, i32}, {f32, f32, i32, f32}, {f64, f64, dtype.Int16, f32},
		{f32, f64, f32, dtype.Uint8}, {dtype.Complex128, dtype.Complex128, f32, dtype.Complex64},
	}
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, op := range []*Binary{Mul, Add, Sub} {
			for _, m := range mixes {
				c, od, ad, bd := m[0], m[1], m[2], m[3]
				for _, n := range []int{3*iter.MinParallel + 17, 4096/od.Size() + 1, 1000, 129, 7} {
					for _, shift := range []int{0, 1} {
						for _, scalar := range []bool{false, true} {
							bStride := bd.Size()
							if scalar {
								bStride = 0
							}
							run := func(out unsafe.Pointer, cold bool) {
								op.Run(c, n,
									Operand{Base: out, DType: od, Stride: od.Size(), Cold: cold},
									Operand{Base: unsafe.Pointer(&pool[0]), DType: ad, Stride: ad.Size()},
									Operand{Base: unsafe.Pointer(&pool[len(pool)-n*bd.Size()]), DType: bd, Stride: bStride})
							}
							name := fmt.Sprintf("%s %v=%v(%v,%v) n=%d shift=%d scalar=%v procs=%d", op.Name, od, c, ad, bd, n, shift, scalar, procs)
							compareCold(t, name, n*od.Size(), shift*od.Size(), run)
						}
					}
				}
				cols := 1024
				rows := 3*iter.MinParallel/cols + 5
				run := func(out unsafe.Pointer, cold bool) {
					op.RunStrided(c, []int{rows, cols}, rows*cols,
						Operand{Base: out, DType: od, Cold: cold},
						Operand{Base: unsafe.Pointer(&pool[0]), DType: ad},
						Operand{Base: unsafe.Pointer(&pool[len(pool)-cols*bd.Size()]), DType: bd},
						[3][]int{{cols * od.Size(), od.Size()}, {cols * ad.Size(), ad.Size()}, {0, bd.Size()}})
				}
				compareCold(t, fmt.Sprintf("%s %v=%v(%v,%v) row broadcast procs=%d", op.Name, od, c, ad, bd, procs), rows*cols*od.Size(), 0, run)
			}
		}
	}
}

// TestColdConvertSameBytes checks Convert into a cold output against the
// same conversion stored as usual, guards included, at lengths about the
// buffer's edges and every start within a line, on one and two threads.
func TestColdConvertSameBytes(t *testing.T) {
	defer func(b int) { ColdStreamBytes = b }(ColdStreamBytes)
	ColdStreamBytes = 0
	rng := rand.New(rand.NewPCG(3, 5))
	pool := randomBytes(rng, 16*(3*iter.MinParallel+2048))
	pairs := [][2]dtype.DType{{dtype.Float64, dtype.Float32}, {dtype.Float16, dtype.Float64}, {dtype.Int8, dtype.Int32},
		{dtype.Complex128, dtype.Int16}, {dtype.BFloat16, dtype.Float32}, {dtype.Float32, dtype.Float32}}
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, pair := range pairs {
			to, from := pair[0], pair[1]
			convert := cast.Kernel(to, from)
			for _, n := range []int{3*iter.MinParallel + 17, 4096/to.Size() - 1, 4096 / to.Size(), 4096/to.Size() + 1, 100, 7} {
				for _, shift := range []int{0, 1, 64/to.Size() - 1} {
					run := func(out unsafe.Pointer, cold bool) {
						Convert(convert, out, to.Size(), unsafe.Pointer(&pool[0]), from.Size(), n, cold)
					}
					compareCold(t, fmt.Sprintf("%v from %v n=%d shift=%d procs=%d", to, from, n, shift, procs), n*to.Size(), shift*to.Size(), run)
				}
			}
		}
	}
}

// mulVia is Mul with every dtype streamed through a buffer (streamedVia),
// as the operations without streaming kernels are: the tests check it
// against Mul, and the benchmarks time it against Mul's streaming kernels.
var mulVia = newBinary("mul", mulKernel, noStreaming, vec.MulF32I32)

// compareCold runs an operation into a cold and an ordinary output of
// size bytes, each shift bytes past a 64-byte boundary with guard bytes on
// both sides, and fails the test if the two differ anywhere.
func compareCold(t *testing.T, name string, size, shift int, run func(out unsafe.Pointer, cold bool)) {
	t.Helper()
	var got [2][]byte
	for i, cold := range []bool{false, true} {
		buf := make([]byte, size+shift+192)
		for j := range buf {
			buf[j] = 0xA5
		}
		start := 64 + int(-uintptr(unsafe.Pointer(&buf[0]))&63) + shift
		run(unsafe.Pointer(&buf[start]), cold)
		got[i] = buf[start-64 : start+size+64]
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("%s: the cold output's bytes differ from the ordinary one's (guards included)", name)
	}
	for _, g := range [][]byte{got[1][:64], got[1][len(got[1])-64:]} {
		for _, v := range g {
			if v != 0xA5 {
				t.Fatalf("%s: a guard byte was written", name)
			}
		}
	}
}

// randomBytes returns n random bytes: random floats of any exponent,
// NaNs and infinities included, and random integers.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
