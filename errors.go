package tensor

import (
	"errors"
	"fmt"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// Sentinel errors. Every error the library returns for bad input wraps
// exactly one of them, so callers can test the class with errors.Is while
// the message names the operation and the offending shapes or values.
var (
	// ErrShape: shapes that do not broadcast, mismatched inner sizes,
	// invalid or overflowing shapes, outputs of the wrong shape.
	ErrShape = shape.ErrShape
	// ErrAxis: an axis out of range or repeated.
	ErrAxis = shape.ErrAxis
	// ErrDType: dtypes that do not promote, forbidden casts, unknown names.
	ErrDType = dtype.ErrDType
	// ErrValue: a value outside what the operation accepts, such as a Go
	// integer scalar outside the range of the tensor's dtype.
	ErrValue = errors.New("value error")
	// ErrIndex: an element index or slice outside the tensor.
	ErrIndex = errors.New("index error")
	// ErrLayout: an operation that does not support the tensor's layout
	// (for example a sparse tensor with more than two dimensions).
	ErrLayout = errors.New("layout error")
	// ErrFormat: malformed serialized data.
	ErrFormat = errors.New("format error")
	// ErrReleased: a tensor used after its Release.
	ErrReleased = errors.New("released tensor")
	// ErrIO: reading or writing a file or stream failed (a missing file, a
	// permission, a failing reader or writer). The operating system's or
	// reader's error is wrapped too, so errors.Is(err, fs.ErrNotExist)
	// holds as well as errors.Is(err, ErrIO).
	ErrIO = errors.New("i/o error")
)

// OpError is the error returned by a failed operation. Its message reads
// "tensor: OP: DETAIL"; errors.Is matches its sentinel class.
type OpError struct {
	Op     string // the operation, e.g. "mul", "matmul"
	Detail string // what was wrong, naming shapes and values
	Class  error  // one of the sentinels above
	cause  error  // an underlying error, if any
}

func (e *OpError) Error() string { return "tensor: " + e.Op + ": " + e.Detail }

// Unwrap lets errors.Is see both the sentinel class and the cause.
func (e *OpError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.Class, e.cause}
	}
	return []error{e.Class}
}

// opErr builds an OpError of the given class with a formatted detail.
func opErr(op string, class error, format string, args ...any) error {
	return &OpError{Op: op, Detail: fmt.Sprintf(format, args...), Class: class}
}

// wrapErr turns an error from a rule package (shape, dtype) into an OpError
// of the same class for operation op. A nil err stays nil.
func wrapErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var oe *OpError
	if errors.As(err, &oe) {
		return err
	}
	class := ErrValue
	for _, c := range []error{ErrShape, ErrAxis, ErrDType, ErrValue, ErrIndex, ErrLayout, ErrFormat} {
		if errors.Is(err, c) {
			class = c
			break
		}
	}
	return &OpError{Op: op, Detail: stripClass(err.Error(), class), Class: class, cause: err}
}

// stripClass removes the ": <sentinel text>" suffix that rule packages add
// with %w, so messages do not end in a generic word.
func stripClass(msg string, class error) string {
	suffix := ": " + class.Error()
	if len(msg) > len(suffix) && msg[len(msg)-len(suffix):] == suffix {
		return msg[:len(msg)-len(suffix)]
	}
	return msg
}

// Must returns t and panics if err is not nil. It is meant for scripts,
// examples and tests, where a failure is a bug: Must(tensor.Mul(x, y)).
func Must(t *Tensor, err error) *Tensor {
	if err != nil {
		panic(err)
	}
	return t
}
