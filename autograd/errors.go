package autograd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tensor-go/tensor"
)

// Sentinel errors of this package. The errors of VJP also wrap the
// library's sentinels where one fits: tensor.ErrDType (differentiating with
// respect to an integer or bool tensor, a seed of the wrong dtype),
// tensor.ErrShape (a seed of the wrong shape), tensor.ErrReleased (a tensor
// the backward reads was released) and tensor.ErrValue (bad arguments).
var (
	// ErrOverwritten: an into-form (MulInto, ProdInto, MatmulInto, ...)
	// wrote into a tensor after the tape recorded it for its backward, so
	// the gradient would use the new values.
	ErrOverwritten = errors.New("tensor overwritten after it was recorded")
	// ErrNotOnTape: a tensor to differentiate with respect to, or an
	// output, that no operation on this tape took or produced.
	ErrNotOnTape = errors.New("tensor not on the tape")
	// ErrUnused: a tensor on the tape that the outputs do not depend on.
	ErrUnused = errors.New("outputs do not depend on the tensor")
)

// gradErr builds an error in the library's style: "tensor: OP: DETAIL",
// matching class with errors.Is.
func gradErr(op string, class error, format string, args ...any) error {
	return &tensor.OpError{Op: op, Detail: fmt.Sprintf(format, args...), Class: class}
}

// aDType is dt's name after its article, as the messages read it aloud:
// "an int32", "a uint8", "a bool".
func aDType(dt tensor.DType) string {
	if name := dt.String(); strings.HasPrefix(name, "int") {
		return "an " + name
	} else {
		return "a " + name
	}
}
