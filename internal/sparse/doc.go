// Package sparse is the sparse-matrix core of the tensor library: COO and CSR
// storage generic over the element type, validation of untrusted index data,
// conversions between the layouts and to and from strided dense matrices, and
// the products sparse@dense (SpMM), dense@sparse (DenseSpMM) and
// sparse@sparse (SpGEMM).
//
// # Arithmetic
//
// Every product is computed from stored entries only: an implicit zero is
// never multiplied, so a NaN or Inf in a dense operand that faces only
// implicit zeros does not reach the result (the rule of PyTorch and SciPy,
// and of the library's contract). Stored duplicates of an uncoalesced matrix
// each contribute, so they sum. Sums start at +0, integers wrap modulo 2^bits
// and complex products do not conjugate.
//
// # Threads
//
// The threaded kernels split their work over output rows only, and each
// output element is accumulated in the same order whatever the split, so a
// result is bit-identical for every threads argument.
//
// # Ownership
//
// Constructors take ownership of the slices they are given; every method
// returns freshly allocated storage and never modifies its receiver.
package sparse
