package tensor

import (
	"math"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/storage"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// DType is the element type of a tensor; see package dtype.
type DType = dtype.DType

// The element types (semantics §1).
const (
	Bool       = dtype.Bool
	Int8       = dtype.Int8
	Int16      = dtype.Int16
	Int32      = dtype.Int32
	Int64      = dtype.Int64
	Uint8      = dtype.Uint8
	Uint16     = dtype.Uint16
	Uint32     = dtype.Uint32
	Uint64     = dtype.Uint64
	Float16    = dtype.Float16
	BFloat16   = dtype.BFloat16
	Float32    = dtype.Float32
	Float64    = dtype.Float64
	Complex64  = dtype.Complex64
	Complex128 = dtype.Complex128
)

// Device is the name of the only device: MegEngine's logical "any device",
// which runs on the CPU.
const Device = "xpux:0"

// Element is the set of Go types that can be tensor elements. Go's int and
// uint are stored as int64 and uint64 on 64-bit platforms (int32 and uint32
// on 32-bit ones), so []int becomes an int64 tensor.
type Element interface {
	bool | int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64 |
		float16.Float16 | bfloat16.BFloat16 | float32 | float64 | complex64 | complex128
}

// Tensor is an n-dimensional view of typed storage. Several tensors may
// share storage: views (transpose, slice, broadcast, reshape) only change
// the shape, the element strides and the offset.
//
// A Tensor is immutable in its metadata; only the into-forms of operations
// write to its elements.
type Tensor struct {
	dtype   dtype.DType
	shape   []int
	strides []int // in elements; 0 for broadcast dimensions, negative for reversed views
	offset  int   // element index of the first element within storage
	storage unsafe.Pointer
	n       int         // number of elements in storage
	layout  Layout      // Strided, or a sparse layout (see sparse.go)
	sparse  *sparseData // the parts of a sparse tensor; nil when strided

	// pool is the class of the buffer t owns as package storage's Take
	// returned it, or 0: Release may give a buffer of nonzero class back.
	// Views, tensors on Go slices and small buffers have 0.
	pool int
	// viewed is set, atomically since views of one tensor may be taken
	// from several goroutines, once a view shares t's storage; Release
	// then leaves the buffer to the garbage collector.
	viewed uint32
	// released is set by Release; every operation on t is then an
	// ErrReleased error.
	released bool
	// cold says that t's buffer came from package storage cold (fresh, or
	// back through a collection; see storage.TakeOutput), for the
	// operation that allocated t to choose how to store into it.
	cold bool
	// writes counts the into-form writes to the storage (see Version). It
	// is made on the first write or view, when views start sharing it, so
	// that a result nothing views or writes costs no allocation.
	// (An unsafe.Pointer to an atomic.Uint64, read and set atomically,
	// rather than an atomic.Pointer, so that a Tensor may be copied.)
	writes unsafe.Pointer
}

// alloc returns storage for n elements of dt, zeroed when zero is set and
// otherwise holding arbitrary bytes. Large buffers come from package
// storage, which recycles the memory of results nothing refers to any more;
// every buffer is 8-byte aligned so that every element type is. class is
// the pooled buffer's size class, which Release needs, or 0.
func alloc(dt dtype.DType, n int, zero bool) (p unsafe.Pointer, class int, err error) {
	p, class, _, err = allocMemory(dt, n, zero)
	return p, class, err
}

// allocMemory is alloc that also says, for uncleared memory, whether the
// buffer is cold (storage.TakeOutput).
func allocMemory(dt dtype.DType, n int, zero bool) (p unsafe.Pointer, class int, cold bool, err error) {
	if n == 0 {
		return nil, 0, false, nil
	}
	size := dt.Size()
	if n > maxBytes/size {
		return nil, 0, false, opErr("alloc", ErrShape, "%d elements of %v need more than the %d bytes this process may use", n, dt, maxBytes)
	}
	if limit := allocLimit(n * size); limit > 0 {
		return nil, 0, false, opErr("alloc", ErrShape, "%d elements of %v need %d bytes, more than the %d bytes this process may allocate now", n, dt, n*size, limit)
	}
	if zero {
		p, class = storage.Take(n*size, true)
		return p, class, false, nil
	}
	p, class, cold = storage.TakeOutput(n * size)
	return p, class, cold, nil
}

// empty returns a new zero-filled contiguous tensor of the given dtype and
// shape. The shape is copied. Callers in operations wrap the error with
// their own name.
func empty(dt dtype.DType, s []int) (*Tensor, error) {
	return newContiguous(dt, s, true)
}

// newProductTensor returns a new contiguous tensor of dtype dt and shape s
// for an operation to overwrite completely, so its memory is not cleared
// first: every kernel that fills one writes each element of its output
// without reading it (package gemm, package blocked and the element-wise
// kernels document this), and so does copyInto.
func newProductTensor(dt dtype.DType, s []int) (*Tensor, error) {
	t, err := newContiguous(dt, s, false)
	if err != nil || !poisonProductTensors || t.n == 0 {
		return t, err
	}
	words := unsafe.Slice((*uint64)(t.storage), (t.n*dt.Size()+7)/8)
	for i := range words {
		words[i] = math.MaxUint64
	}
	return t, nil
}

// poisonProductTensors makes newProductTensor fill the tensors it returns
// with all-ones bytes (NaN, -1), so that tests see any element a kernel
// fails to write.
var poisonProductTensors = false

func newContiguous(dt dtype.DType, s []int, zero bool) (*Tensor, error) {
	n, err := shape.Size(s)
	if err != nil {
		return nil, err
	}
	if n > 0 && n <= inlineBytes/dt.Size() && len(s) <= 4 { // n*size could overflow
		t, own, strides, value := newInlineHeader(len(s))
		copy(own, s)
		shape.FillContiguousStrides(strides, own)
		t.dtype, t.storage, t.n = dt, value, n
		return t, nil
	}
	p, class, cold, err := allocMemory(dt, n, zero)
	if err != nil {
		return nil, err
	}
	t, own, strides := newHeader(len(s))
	copy(own, s)
	shape.FillContiguousStrides(strides, own)
	t.dtype, t.storage, t.n, t.pool, t.cold = dt, p, n, class, cold
	return t, nil
}

// newHeader returns a zero Tensor with its shape and strides set to slices
// of rank elements each, for the caller to fill. Up to rank 4 the header,
// the shape and the strides are one allocation (a call on a small tensor
// pays for each allocation as much as for its elements); beyond, the
// shape and strides share a second one.
func newHeader(rank int) (t *Tensor, shape, strides []int) {
	var dims []int
	switch {
	case rank == 0:
		t = new(Tensor)
		t.shape, t.strides = []int{}, []int{} // empty, not nil, as for every tensor
		return t, t.shape, t.strides
	case rank == 1:
		t, dims = headerWith[[2]int](rank)
	case rank == 2:
		t, dims = headerWith[[4]int](rank)
	case rank <= 4:
		t, dims = headerWith[[8]int](rank)
	default:
		t, dims = new(Tensor), make([]int, 2*rank)
	}
	t.shape, t.strides = dims[:rank:rank], dims[rank:2*rank:2*rank]
	return t, t.shape, t.strides
}

// inlineBytes is the most storage a new tensor keeps inside its header:
// one element of any dtype (a scalar operand, a full reduction's result).
const inlineBytes = 16

// newInlineHeader is newHeader for rank <= 4 with inlineBytes of zeroed,
// 8-byte aligned storage in the same allocation, returned as value. The
// storage lives as long as the header (and every view of it) does; its
// pool class is 0, so Release leaves it to the garbage collector.
func newInlineHeader(rank int) (t *Tensor, shape, strides []int, value unsafe.Pointer) {
	var dims []int
	switch {
	case rank <= 1:
		h := new(header[[2]int, [inlineBytes / 8]uint64])
		t, dims, value = &h.t, h.dims[:], unsafe.Pointer(&h.value)
	case rank == 2:
		h := new(header[[4]int, [inlineBytes / 8]uint64])
		t, dims, value = &h.t, h.dims[:], unsafe.Pointer(&h.value)
	default:
		h := new(header[[8]int, [inlineBytes / 8]uint64])
		t, dims, value = &h.t, h.dims[:], unsafe.Pointer(&h.value)
	}
	t.shape, t.strides = dims[:rank:rank], dims[rank:2*rank:2*rank]
	return t, t.shape, t.strides, value
}

// header is a Tensor, room for its dimensions (D, an array of ints) and
// possibly for its elements (V), allocated together.
type header[D, V any] struct {
	t     Tensor
	dims  D
	value V
}

// headerWith allocates a header whose D holds the 2·rank dimensions.
func headerWith[D any](rank int) (*Tensor, []int) {
	h := new(header[D, struct{}])
	return &h.t, unsafe.Slice((*int)(unsafe.Pointer(&h.dims)), 2*rank)
}

// DType returns the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Shape returns a copy of the dimensions.
func (t *Tensor) Shape() []int { return append([]int{}, t.shape...) }

// Strides returns a copy of the element strides (not bytes, unlike NumPy).
func (t *Tensor) Strides() []int { return append([]int{}, t.strides...) }

// NDim returns the number of dimensions (0 for a scalar tensor).
func (t *Tensor) NDim() int { return len(t.shape) }

// Size returns the number of elements.
func (t *Tensor) Size() int { return shape.MustSize(t.shape) }

// Device returns the device the tensor lives on; always "xpux:0".
func (t *Tensor) Device() string { return Device }

// Layout returns how the tensor stores its elements: Strided, SparseCOO or
// SparseCSR.
func (t *Tensor) Layout() Layout { return t.layout }

// IsContiguous reports whether the elements lie in row-major order with no
// gaps, so that the tensor's elements are one contiguous run of storage.
func (t *Tensor) IsContiguous() bool {
	if t.layout != Strided {
		return false // a sparse tensor has no strided elements at all
	}
	step := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] == 1 {
			continue
		}
		if t.shape[i] == 0 {
			return true
		}
		if t.strides[i] != step {
			return false
		}
		step *= t.shape[i]
	}
	return true
}

// storageOf returns the whole storage of t as a slice of T. T must be the Go
// type of t's dtype (or of the same size, for bit-level kernels).
func storageOf[T any](t *Tensor) []T {
	return unsafe.Slice((*T)(t.storage), t.n)
}

// contiguousData returns the elements of a contiguous t as a slice of T,
// starting at its first element.
func contiguousData[T any](t *Tensor) []T {
	return storageOf[T](t)[t.offset : t.offset+t.Size()]
}

// dtypeOf returns the dtype that holds Go values of type T.
func dtypeOf[T Element]() dtype.DType {
	var zero T
	switch any(zero).(type) {
	case bool:
		return dtype.Bool
	case int:
		if unsafe.Sizeof(zero) == 4 {
			return dtype.Int32
		}
		return dtype.Int64
	case uint:
		if unsafe.Sizeof(zero) == 4 {
			return dtype.Uint32
		}
		return dtype.Uint64
	case int8:
		return dtype.Int8
	case int16:
		return dtype.Int16
	case int32:
		return dtype.Int32
	case int64:
		return dtype.Int64
	case uint8:
		return dtype.Uint8
	case uint16:
		return dtype.Uint16
	case uint32:
		return dtype.Uint32
	case uint64:
		return dtype.Uint64
	case float16.Float16:
		return dtype.Float16
	case bfloat16.BFloat16:
		return dtype.BFloat16
	case float32:
		return dtype.Float32
	case float64:
		return dtype.Float64
	case complex64:
		return dtype.Complex64
	case complex128:
		return dtype.Complex128
	}
	panic("unreachable: Element covers every case")
}

// FromSlice returns a new tensor holding a copy of data with the given
// shape; with no shape, a 1-D tensor of len(data). The dtype follows the Go
// element type. It fails when the shape does not hold len(data) elements.
func FromSlice[T Element](data []T, shape_ ...int) (*Tensor, error) {
	if shape_ == nil {
		shape_ = []int{len(data)}
	}
	n, err := shape.Size(shape_)
	if err != nil {
		return nil, wrapErr("from_slice", err)
	}
	if n != len(data) {
		return nil, opErr("from_slice", ErrShape, "%d elements do not fill shape %s", len(data), shape.String(shape_))
	}
	t, err := empty(dtypeOf[T](), shape_)
	if err != nil {
		return nil, wrapErr("from_slice", err)
	}
	copy(storageOf[T](t), data)
	return t, nil
}
