package vec

import (
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
	"unsafe"
)

// mulCase describes one multiply kernel for the generic checks. run calls
// the kernel of set k; b has one element more than dst, and the scalar
// kernels take that last element as s.
type mulCase[D, A, B any] struct {
	name string
	run  func(k binaryKernels, dst []D, a []A, b []B)
	genA func(*rand.Rand) A
	genB func(*rand.Rand) B
	same func(x, y D) bool
}

// binaryOp is one element-wise operation's kernel sets: its Go twin and
// the accelerated sets this machine runs.
type binaryOp struct {
	name  string
	twin  binaryKernels
	table *kernels.Table[binaryKernels]
}

// binaryOps is every operation the binary kernels serve; each case runs
// against all of them, since the sets share their layout.
func binaryOps() []binaryOp {
	return []binaryOp{{"mul", mulGo, mulTable}, {"add", addGo, addTable}}
}

// checkMul runs every accelerated set of c, for every operation, against
// its Go twin at every edge length and alignment, with sentinels around
// dst, once as usual and once with streaming stores forced on.
func checkMul[D, A, B any](t *testing.T, c mulCase[D, A, B]) {
	t.Helper()
	if len(accelerated(mulTable)) == 0 {
		t.Skip("no accelerated kernels on this machine or build")
	}
	for _, op := range binaryOps() {
		checkOp(t, c, op)
	}
}

func checkOp[D, A, B any](t *testing.T, c mulCase[D, A, B], op binaryOp) {
	r := rand.New(rand.NewPCG(1, uint64(len(c.name))))
	size := int(unsafe.Sizeof(*new(D)))
	// The sentinel is 0xa5 in every byte: not zero (which a store of a
	// zero-masked lane would write) and not NaN.
	sentinel := func() (z D) {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&z)), size)
		for i := range b {
			b[i] = 0xa5
		}
		return z
	}
	defer func(saved int) { streamThreshold = saved }(streamThreshold)
	for _, v := range accelerated(op.table) {
		for _, threshold := range []int{streamThreshold, 0} {
			streamThreshold = threshold
			for _, n := range testLengths(r, size) {
				for _, off := range testOffsets(n) {
					a, _ := sliceAt(n, (off*3)%16, func() A { return c.genA(r) })
					b, _ := sliceAt(n+1, (off*5)%16, func() B { return c.genB(r) })
					want := make([]D, n)
					c.run(op.twin, want, a, b)
					dst, buf := sliceAt(n, off, sentinel)
					c.run(v.K, dst, a, b)
					for i := range dst {
						if !c.same(dst[i], want[i]) {
							t.Fatalf("%s %s/%s n=%d off=%d: dst[%d] = %v, twin %v (a=%v b=%v)",
								op.name, v.Name(), c.name, n, off, i, dst[i], want[i], a[i], b[i])
						}
					}
					for i, x := range buf {
						if (i < guard+off || i >= guard+off+n) && !c.same(x, sentinel()) {
							t.Fatalf("%s %s/%s n=%d off=%d: guard element %d overwritten",
								op.name, v.Name(), c.name, n, off, i-guard-off)
						}
					}
				}
			}
		}
	}
}

// checkMulInPlace checks dst aliasing a exactly, for kernels whose dst and a
// types match.
func checkMulInPlace[T, B any](t *testing.T, c mulCase[T, T, B]) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	defer func(saved int) { streamThreshold = saved }(streamThreshold)
	streamThreshold = 0
	for _, op := range binaryOps() {
		checkOpInPlace(t, c, op, r)
	}
}

func checkOpInPlace[T, B any](t *testing.T, c mulCase[T, T, B], op binaryOp, r *rand.Rand) {
	for _, v := range accelerated(op.table) {
		for _, n := range []int{1, 7, 63, 64, 65, 257, 1000} {
			a := make([]T, n)
			for i := range a {
				a[i] = c.genA(r)
			}
			b := make([]B, n+1)
			for i := range b {
				b[i] = c.genB(r)
			}
			want := make([]T, n)
			c.run(op.twin, want, a, b)
			c.run(v.K, a, a, b)
			for i := range a {
				if !c.same(a[i], want[i]) {
					t.Fatalf("%s %s/%s in place n=%d: [%d] = %v, want %v", op.name, v.Name(), c.name, n, i, a[i], want[i])
				}
			}
		}
	}
}

func binaryCase[T any](name string, pick func(binaryKernels) binary[T], gen func(*rand.Rand) T, same func(x, y T) bool) mulCase[T, T, T] {
	return mulCase[T, T, T]{
		name: name,
		run:  func(k binaryKernels, dst, a, b []T) { pick(k)(dst, a, b[:len(dst)]) },
		genA: gen, genB: gen, same: same,
	}
}

func scalarCase[T any](name string, pick func(binaryKernels) scalar[T, T], gen func(*rand.Rand) T, same func(x, y T) bool) mulCase[T, T, T] {
	return mulCase[T, T, T]{
		name: name,
		run:  func(k binaryKernels, dst, a, b []T) { pick(k)(dst, a, b[len(dst)]) },
		genA: gen, genB: gen, same: same,
	}
}

func TestMulMatchesTwin(t *testing.T) {
	t.Run("f32", func(t *testing.T) {
		c := binaryCase("f32", func(k binaryKernels) binary[float32] { return k.f32 }, randF32, sameF32)
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("f64", func(t *testing.T) {
		c := binaryCase("f64", func(k binaryKernels) binary[float64] { return k.f64 }, randF64, sameF64)
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("i8", func(t *testing.T) {
		c := binaryCase("i8", func(k binaryKernels) binary[int8] { return k.i8 }, randI8, same[int8])
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("i16", func(t *testing.T) {
		checkMul(t, binaryCase("i16", func(k binaryKernels) binary[int16] { return k.i16 }, randI16, same[int16]))
	})
	t.Run("i32", func(t *testing.T) {
		checkMul(t, binaryCase("i32", func(k binaryKernels) binary[int32] { return k.i32 }, randI32, same[int32]))
	})
	t.Run("i64", func(t *testing.T) {
		checkMul(t, binaryCase("i64", func(k binaryKernels) binary[int64] { return k.i64 }, randI64, same[int64]))
	})
	t.Run("scalarF32", func(t *testing.T) {
		c := scalarCase("scalarF32", func(k binaryKernels) scalar[float32, float32] { return k.scalarF32 }, randF32, sameF32)
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("scalarF64", func(t *testing.T) {
		checkMul(t, scalarCase("scalarF64", func(k binaryKernels) scalar[float64, float64] { return k.scalarF64 }, randF64, sameF64))
	})
	t.Run("scalarI8", func(t *testing.T) {
		checkMul(t, scalarCase("scalarI8", func(k binaryKernels) scalar[int8, int8] { return k.scalarI8 }, randI8, same[int8]))
	})
	t.Run("scalarI16", func(t *testing.T) {
		checkMul(t, scalarCase("scalarI16", func(k binaryKernels) scalar[int16, int16] { return k.scalarI16 }, randI16, same[int16]))
	})
	t.Run("scalarI32", func(t *testing.T) {
		checkMul(t, scalarCase("scalarI32", func(k binaryKernels) scalar[int32, int32] { return k.scalarI32 }, randI32, same[int32]))
	})
	t.Run("scalarI64", func(t *testing.T) {
		checkMul(t, scalarCase("scalarI64", func(k binaryKernels) scalar[int64, int64] { return k.scalarI64 }, randI64, same[int64]))
	})
	t.Run("f32i32", func(t *testing.T) {
		c := mulCase[float32, float32, int32]{
			name: "f32i32",
			run:  func(k binaryKernels, dst, a []float32, b []int32) { k.f32i32(dst, a, b[:len(dst)]) },
			genA: randF32, genB: randSmallI32, same: sameF32,
		}
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("f64f32", func(t *testing.T) {
		c := mulCase[float64, float64, float32]{
			name: "f64f32",
			run:  func(k binaryKernels, dst, a []float64, b []float32) { k.f64f32(dst, a, b[:len(dst)]) },
			genA: randF64, genB: randF32, same: sameF64,
		}
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("f16", func(t *testing.T) {
		c := binaryCase("f16", func(k binaryKernels) binary[uint16] { return k.f16 }, randBits, sameF16)
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("bf16", func(t *testing.T) {
		c := binaryCase("bf16", func(k binaryKernels) binary[uint16] { return k.bf16 }, randBits, sameBF16)
		checkMul(t, c)
		checkMulInPlace(t, c)
	})
	t.Run("scalarF16", func(t *testing.T) {
		checkMul(t, mulCase[uint16, uint16, uint16]{
			name: "scalarF16",
			run:  func(k binaryKernels, dst, a, b []uint16) { k.scalarF16(dst, a, f16ToF32(b[len(dst)])) },
			genA: randBits, genB: randBits, same: sameF16,
		})
	})
	t.Run("scalarBF16", func(t *testing.T) {
		checkMul(t, mulCase[uint16, uint16, uint16]{
			name: "scalarBF16",
			run:  func(k binaryKernels, dst, a, b []uint16) { k.scalarBF16(dst, a, bf16ToF32(b[len(dst)])) },
			genA: randBits, genB: randBits, same: sameBF16,
		})
	})
}
