package shape

import "fmt"

// MatmulShapes describes a matrix product a @ b (semantics §7) in the terms
// a kernel needs: a stack of Batch (M×K)·(K×N) products, and the shape of
// the result once the dimensions added for 1-D operands are dropped.
type MatmulShapes struct {
	// Out is the shape of the result.
	Out []int
	// Batch is the broadcast batch shape (possibly empty); Out without its
	// matrix dimensions, before any 1-D operand's dimension is dropped.
	Batch []int
	// ABatch and BBatch are the operands' own batch dimensions (their shape
	// without the last two, or one, dimensions); they broadcast to Batch.
	ABatch, BBatch []int
	// M, K and N are the sizes of each product: (M×K)·(K×N).
	M, K, N int
	// AVector and BVector report a 1-D operand, seen as a (1, K) row for a
	// and a (K, 1) column for b.
	AVector, BVector bool
}

// Matmul returns the shapes of the matrix product of tensors of shapes a
// and b with PyTorch's rules: 1-D·1-D is a dot product giving a 0-d result;
// a 1-D first operand is a row (1, K) and a 1-D second operand a column
// (K, 1), and the added dimension is dropped from the result; the batch
// dimensions (all but the last two) broadcast mutually, while the matrix
// dimensions never broadcast. 0-d operands are an error.
func Matmul(a, b []int) (MatmulShapes, error) {
	var ms MatmulShapes
	fail := func(format string, args ...any) (MatmulShapes, error) {
		return MatmulShapes{}, fmt.Errorf("shapes %s and %s: %s: %w", String(a), String(b), fmt.Sprintf(format, args...), ErrShape)
	}
	for _, s := range [][]int{a, b} {
		if len(s) > MaxRank {
			return fail("more than %d dimensions", MaxRank)
		}
		for _, d := range s {
			if d < 0 {
				return fail("negative dimension")
			}
		}
	}
	if len(a) == 0 || len(b) == 0 {
		return fail("both operands need at least one dimension")
	}

	ms.AVector, ms.BVector = len(a) == 1, len(b) == 1
	var ka, kb int
	if ms.AVector {
		ms.M, ka = 1, a[0]
	} else {
		ms.ABatch = append([]int{}, a[:len(a)-2]...)
		ms.M, ka = a[len(a)-2], a[len(a)-1]
	}
	if ms.BVector {
		kb, ms.N = b[0], 1
	} else {
		ms.BBatch = append([]int{}, b[:len(b)-2]...)
		kb, ms.N = b[len(b)-2], b[len(b)-1]
	}
	if ka != kb {
		return fail("inner sizes %d and %d differ", ka, kb)
	}
	ms.K = ka

	batch, err := Broadcast(ms.ABatch, ms.BBatch)
	if err != nil {
		return fail("batch dimensions %s and %s do not broadcast", String(ms.ABatch), String(ms.BBatch))
	}
	ms.Batch = batch

	ms.Out = append([]int{}, batch...)
	if !ms.AVector {
		ms.Out = append(ms.Out, ms.M)
	}
	if !ms.BVector {
		ms.Out = append(ms.Out, ms.N)
	}
	// The result must have a countable size; each operand already does.
	if _, err := Size(append(append([]int{}, batch...), ms.M, ms.N)); err != nil {
		return fail("the result has more elements than fit in an int")
	}
	return ms, nil
}
