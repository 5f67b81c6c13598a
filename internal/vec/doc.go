// Package vec holds the one-dimensional kernels under the tensor library's
// element-wise multiply and product reduction.
//
// The iteration engine reduces every N-d operation to contiguous 1-D runs
// (or a run against a broadcast scalar) and calls these kernels on them, so
// they are written to run at memory speed: AVX-512 or AVX2 assembly on
// amd64, NEON on arm64, taken from the active kernel set
// (internal/kernels), with a plain Go twin for every kernel. Building with
// -tags purego uses only the twins.
//
// # Preconditions
//
// Kernels take contiguous slices. For the binary kernels len(a) and len(b)
// must be at least len(dst) (only the first len(dst) elements are read; a
// shorter input panics before any assembly runs). dst may alias a or b
// exactly, which is how the engine multiplies in place, but must not
// partially overlap either.
//
// # Large outputs
//
// The same-width multiply kernels write a dst of twice the core's L2 or
// more (4 MiB on a 2 MiB L2) with non-temporal stores, which skip reading each destination line before
// overwriting it (a quarter of the memory traffic) but leave dst out of
// cache. Callers that split a large operation into runs see ordinary stores
// per run, and keep the cache, unless they call the Streaming kernels
// (MulF32Streaming and kin), which stream whatever the length: for runs of
// an output the caller knows to be larger than the caches.
//
// # Integer and half-precision types
//
// Integer products wrap modulo 2^bits. Wrapping multiplication gives the same
// bits for signed and unsigned operands of one width, so uint8..uint64 tensors
// are served by the int8..int64 kernels through the same memory.
//
// float16 and bfloat16 are carried as their uint16 bit patterns. Products are
// computed in float32, which is exact for one product of two halves (for
// bfloat16 up to float32 underflow), and rounded once to nearest even; NaN
// stays NaN.
//
// # Order of float products
//
// A float product reduction is not associative, so the order is part of the
// contract and every implementation (AVX-512, AVX2, NEON, Go) follows it,
// giving bit-identical results. The run is cut into blocks of L elements, L = 64
// for 4-byte accumulators and L = 32 for 8-byte ones (256 bytes either way).
// Lane j, starting at 1, multiplies in turn element j of each full block;
// then lane j multiplies element j of the final partial block, if any.
// Finally the lanes are folded pairwise: lane j *= lane j+L/2 for j < L/2,
// then j < L/4, and so on down to lane 0, which is the result.
package vec
