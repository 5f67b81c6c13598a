// Package tensor is an n-dimensional array library for Go with NumPy's and
// PyTorch's semantics for the multiplicative core of numerical work:
// element-wise multiply with broadcasting and type promotion ([Mul]),
// product reductions over any axes ([Prod]), and the matrix product with
// batched broadcasting, sparse operands and precision modes ([Matmul]).
// It is pure Go plus Go assembly: no cgo, no build flags.
//
// The rules every operation follows are collected in docs/semantics.md of
// this module; comments cite its sections as "semantics §N".
//
// # Tensors
//
// A [Tensor] is a view of typed storage: a dtype, a shape, element strides
// and an offset. Transposes, slices, broadcasts and most reshapes are views
// that share storage; operations accept any view, so a transposed or
// stepped operand costs no copy. Fifteen dtypes are supported: bool, the
// signed and unsigned integers of 8 to 64 bits, float16, bfloat16, float32,
// float64, complex64 and complex128. The default dtypes are int32 and
// float32 (as in MegEngine); tensors built from Go slices take the dtype of
// the Go element type ([]int is int64, []float64 is float64).
//
// # Layouts
//
// Besides the dense (strided) layout, a tensor may be a 2-D sparse matrix
// in COO or CSR layout ([NewSparseCOO], [NewSparseCSR], [Tensor.ToSparseCSR]).
// Matmul and Mul accept them with PyTorch's rules, multiplying only stored
// entries; [Layout] states every rule. Other operations on a sparse tensor
// are ErrLayout errors.
//
// # Operands
//
// Binary operations take operands of type any: a *Tensor or a Go number
// (bool, int, uint, sized integers, float32, float64, complex64,
// complex128). Go numbers are "weak": Mul(x, 2) keeps x's int32 dtype, and
// an integer that does not fit the tensor's dtype is an error rather than a
// silent wrap. Two Go numbers give a 0-d tensor of the default dtype:
// Mul(1.0, 4.0) is a float32 4.0.
//
// Two Go integers whose product dtype would be int32 must fit in int32
// (Mul(1<<40, 2) is an ErrValue error, not a silent int64); pass a typed
// tensor such as ScalarOf(int64(1<<40)) to choose the dtype. Go types
// defined on numbers (type celsius float64) are accepted as their kind.
//
// # Type promotion
//
// Tensor with tensor promotes by dtype alone, never by value (see
// [dtype.Promote]): within a kind the wider type wins, integers never widen
// a float (int64 with float32 is float32), float16 with bfloat16 is
// float32, and uint64 with a signed integer is an error because no integer
// dtype holds both.
//
// # Conversions
//
// AsType and the into-forms convert as NumPy does: floats to integers
// truncate toward zero; integers wrap to narrower integers; conversions
// into float16 and bfloat16 round once to nearest even, even from float64
// and 64-bit integers, and a NaN stays a NaN; complex to real drops the
// imaginary part; anything to bool is x != 0. Where NumPy leaves a result
// to the platform (NaN or an out-of-range float converted to an integer),
// this library fixes one answer on every platform: the bit pattern 1<<63
// wrapped to the destination width (int64 min for 64-bit integers, 0 for
// narrower ones), which is what NumPy gives on x86-64 for int64.
//
// # Errors
//
// Bad input returns an error, never a panic: an [*OpError] whose message
// names the operation and the offending shapes or values, and which
// matches one of the sentinels [ErrShape], [ErrAxis], [ErrDType],
// [ErrValue], [ErrIndex], [ErrLayout], [ErrFormat], [ErrReleased] or
// [ErrIO] with errors.Is. [Must] turns errors into panics for scripts and
// examples. Messages quote at most a short prefix of any text taken from
// the input.
//
// A nil *Tensor and the zero value Tensor{} (a struct field held by value,
// never built by a constructor) are ErrValue errors in every operation,
// as a released tensor is an ErrReleased one; String prints them as
// Tensor(<zero value>, ...) and Tensor(<released>, ...). A file that
// cannot be opened, read or written, or a reader or writer that fails, is
// an ErrIO error that also wraps the cause, so errors.Is(err,
// fs.ErrNotExist) holds beside errors.Is(err, ErrIO).
//
// A size that cannot be held is refused before anything is allocated:
// element and byte counts are computed with overflow checks, conversions
// to sparse layouts count their entries (and CSR's row pointers) first,
// and the file readers allocate only what the input can deliver (a file's
// length, or a zip member's compressed bytes times deflate's largest
// ratio, 1032), reading each array straight into its tensor's storage.
// Valid NumPy files of dtypes the library lacks are ErrDType errors; bool
// bytes other than 0 load as true.
//
// # Memory
//
// Results of 16 KiB and more live in memory recycled from results nothing
// refers to any more (package internal/storage): a loop such as
// y = Matmul(a, b) gets back the memory of the y it dropped, as NumPy gets it
// back from malloc, instead of paying page faults and clearing for a fresh
// allocation each time. A buffer is recycled only after the garbage
// collector has found no pointer into it, so views, slices and running
// operations keep theirs. The library never starts a collection: it finds
// dead results through the program's own collections (none with GOGC=off),
// [Tensor.Release] and the into-forms. The memory it keeps is at most 1 GiB
// and a quarter of what the process may use (RAM, RLIMIT_AS, the cgroup's
// limit, GOMEMLIMIT), nothing when the Go heap nears GOMEMLIMIT, and goes
// back to the kernel after about two idle seconds. One allocation larger
// than the process may make is an ErrShape error, not a crash.
//
// A loop that drops a result per call can say so with [Tensor.Release]:
// the next result of the same size then gets that memory at once, warm in
// the caches, and no collection is needed to find it dead, which is what
// NumPy's reference counting gives its loops. Writing each result into the
// same output ([MatmulInto], [MulInto]) does the same without a new tensor
// per call. Parallel calls run on helper goroutines that poll briefly for
// the next call and then block ([SetHelperSpin], TENSOR_SPIN).
// docs/memory.md describes every setting and the reasons.
//
// # Printing
//
// A tensor prints as MegEngine prints it, the body being what NumPy's str
// prints with precision 4 and suppress=True:
//
//	Tensor([[ 2  4  6]
//	 [ 8 10 12]], dtype=int32, device=xpux:0)
//
// dtype= is left out for float32. The device is always xpux:0, the logical
// "any device", which runs on the CPU.
//
// [Tensor.Format] makes fmt's other verbs format the elements in the
// same layout: fmt.Printf("%.6g", x) prints six significant digits,
// "%8.2e" and "%.2f" work as for a []float64, and %+v adds the shape,
// strides and dtype. [Equal] and [AllClose] compare tensors in tests (two
// equal tensors are never reflect.DeepEqual); a tensor marshals as .npy
// bytes ([Tensor.MarshalBinary]) and as nested JSON lists.
//
// # Sharing memory with Go
//
// [FromSlice] and [ToSlice] copy. [Wrap] makes a tensor of a Go slice
// without copying, and [Elements] returns a contiguous tensor's elements in
// place; [Get], [Set] and [Each] read and write single elements with the
// Go type of the dtype, and [Copy] writes into any view, as NumPy's
// dst[...] = src.
package tensor
