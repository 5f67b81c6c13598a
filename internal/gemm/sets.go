package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// kernelSet is everything this package takes from one kernel set: the
// micro-kernels with their tiles and blocking, the small-matrix kernels,
// the matrix-vector helpers and the copy helpers. The Go
// twins make up the generic entry (goSet); sets_amd64.go builds the entry
// of each x86 set from the one below it, replacing what it has kernels
// for.
type kernelSet struct {
	f32 *kernel[float32]
	f64 *kernel[float64]
	i32 *kernel[int32]
	i64 *kernel[int64]

	// Small kernels and the widest n each takes (0: the twin, used only
	// for tiny work; see smallFor).
	smallF32      smallKernel[float32]
	smallF64      smallKernel[float64]
	smallWidthF32 int
	smallWidthF64 int

	// Small kernels that store C around the caches (non-temporal
	// stores), for rows of C of exactly 32 or 64 bytes in cold memory (see
	// smallCall.streamed); nil where the set has none.
	smallStreamF32 smallKernel[float32]
	smallStreamF64 smallKernel[float64]

	// Matrix-vector helpers (gemv.go).
	gemvF32 gemvHelpers[float32]
	gemvF64 gemvHelpers[float64]

	// copyRows128 and copyRows64 copy 128- and 64-byte rows while packing
	// (pack.go).
	copyRows128 func(dst, src unsafe.Pointer, rows, stride int)
	copyRows64  func(dst, src unsafe.Pointer, rows, stride int)

	// copyPanel128 and copyPanel64 pack whole slivers of a row-major B
	// panel row by row (pack.go, packPanelFast).
	copyPanel128 func(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)
	copyPanel64  func(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)

	// wideRows128F32, wideRows128F64 and their 64-byte forms pack rows of
	// a complex product's wide matrix (complex.go, packWide).
	wideRows128F32, wideRows128F64 func(dst, src unsafe.Pointer, rows, stride, odd int)
	wideRows64F32, wideRows64F64   func(dst, src unsafe.Pointer, rows, stride, odd int)

	// dot4BF16, when set, is the bfloat16 matrix-vector kernel
	// (halfvector.go); without it the rows are widened into a buffer.
	dot4BF16 dot4BF16Func

	// bf16, when set, multiplies bfloat16 products on tiles (tiles.go)
	// instead of widening them to float32 (half.go).
	bf16 *tileKernel

	// pairs16, when set, multiplies int16 in pairs (pairs.go, MulNarrow);
	// pairBytes and interleaveBytes rewrite int8 and uint8 operands for
	// it.
	pairs16         *kernel[int32]
	pairBytes       func(dst []int32, src []byte, signed bool)
	interleaveBytes func(dst []int32, lo, hi []byte, signed bool)

	// minFlopsPerThread is the work (multiply-adds) from which a product
	// gets a second goroutine: about 8 µs of one core on the set's
	// kernels (see avx512MinFlopsPerThread, where it was measured).
	minFlopsPerThread int
}

// goSet is the generic entry: the Go twins.
var goSet = kernelSet{
	f32: goKernelF32, f64: goKernelF64, i32: goKernelI32, i64: goKernelI64,
	smallF32: smallGoF32, smallF64: smallGoF64,
	gemvF32: gemvGo[float32](), gemvF64: gemvGo[float64](),
	copyRows128:     copyRows128Go,
	copyRows64:      copyRows64Go,
	copyPanel128:    copyPanelGo[[128]byte],
	copyPanel64:     copyPanelGo[[64]byte],
	wideRows128F32:  wideRowsGo[float32, [128]byte],
	wideRows128F64:  wideRowsGo[float64, [128]byte],
	wideRows64F32:   wideRowsGo[float32, [64]byte],
	wideRows64F64:   wideRowsGo[float64, [64]byte],
	pairBytes:       pairBytes,
	interleaveBytes: interleaveBytes,
	// The Go kernels run at about an eighth of the AVX-512 ones.
	minFlopsPerThread: avx512MinFlopsPerThread / 8,
}

// active is the entry of the active kernel set, which the package uses;
// kernelSets keeps it so.
var (
	active     kernelSet
	kernelSets = kernels.NewTable(&active, goSet)
)

// passedOverF32 and passedOverF64 are micro-kernels this processor runs
// that no set takes, because a processor table chose other kernels for
// its set (avx2GEMMOn); the tests check them all the same.
var (
	passedOverF32 []*kernel[float32]
	passedOverF64 []*kernel[float64]
)
