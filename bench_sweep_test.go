package tensor

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// The sweep: shapes beyond the benchmark suite's workloads, which hidden
// workloads measure too (odd and small sizes, tiny calls where per-call
// cost decides, transposed operands, vector-matrix and other matrix-vector
// shapes, broadcast and tiny batches, float64, complex64, int8, bfloat16,
// short reduction axes). The list is bench/sweep.json, which `tensor bench
// --workloads` and bench/peers.py run beside the peers (bench/sweep.py
// prints the ratios); BenchmarkSweep reads the same file, so that the go
// test figures are benchstat-comparable and never drift from it. Each is a
// plain loop dropping its result, as users call the library; compare
// kernel sets with TENSOR_KERNELS=avx2 or generic and -count=1.

// sweepWorkload is the part of a bench/sweep.json entry that dense
// workloads use (see the file's "about").
type sweepWorkload struct {
	Name       string          `json:"name"`
	Op         string          `json:"op"`
	A          []int           `json:"a"`
	B          []int           `json:"b"`
	DType      string          `json:"dtype"`
	Axis       json.RawMessage `json:"axis"`
	BDType     string          `json:"bdtype"`
	Transpose  bool            `json:"transpose"`
	BTranspose bool            `json:"b_transpose"`
	Flops      float64         `json:"flops"`
	Bytes      float64         `json:"bytes"`
	Scalar     *float64        `json:"scalar"`
	To         string          `json:"to"`
	Shape      []int           `json:"shape"`
	Rows       []int           `json:"rows"`
	// ASparse and BSparse name a sparse operand's layout ("csr", "coo"):
	// those workloads are the CLI's (tensor bench builds their operands,
	// cmd/tensor's TestSweepWorkloads checks them); built dense here, a
	// 100000² operand would not fit in memory.
	ASparse string `json:"a_sparse"`
	BSparse string `json:"b_sparse"`
}

func readSweep(tb testing.TB) []sweepWorkload {
	tb.Helper()
	data, err := os.ReadFile("bench/sweep.json")
	if err != nil {
		tb.Fatal(err)
	}
	var file struct {
		Workloads []sweepWorkload `json:"workloads"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		tb.Fatal(err)
	}
	return file.Workloads
}

// call returns the workload's operation on operands drawn as the peers
// draw theirs, transposed views where the entry says so.
func (w sweepWorkload) call(b testing.TB) func() (*Tensor, error) {
	dt, err := dtype.Parse(w.DType)
	if err != nil {
		b.Fatal(err)
	}
	x := sweepOperand(b, 1, dt, w.A, w.Transpose)
	var y any
	if w.B != nil {
		bdt := dt
		if w.BDType != "" {
			if bdt, err = dtype.Parse(w.BDType); err != nil {
				b.Fatal(err)
			}
		}
		y = sweepOperand(b, 2, bdt, w.B, w.BTranspose)
	}
	if w.Scalar != nil {
		y = *w.Scalar // a weak Go scalar
	}
	switch w.Op {
	case "matmul":
		yt := y.(*Tensor)
		return func() (*Tensor, error) { return Matmul(x, yt) }
	case "mul":
		return func() (*Tensor, error) { return Mul(x, y) }
	case "add":
		return func() (*Tensor, error) { return Add(x, y) }
	case "sub":
		return func() (*Tensor, error) { return Sub(x, y) }
	case "neg":
		return func() (*Tensor, error) { return Neg(x) }
	case "astype":
		to, err := dtype.Parse(w.To)
		if err != nil {
			b.Fatal(err)
		}
		return func() (*Tensor, error) { return x.AsType(to) }
	case "reshape":
		return func() (*Tensor, error) { return x.Reshape(w.Shape...) }
	case "transpose":
		return func() (*Tensor, error) { return x.Transpose(), nil }
	case "slice":
		return func() (*Tensor, error) { return x.Slice(Span(w.Rows[0], w.Rows[1])) }
	}
	reduce := map[string]func(*Tensor, ...ReduceOption) (*Tensor, error){"prod": Prod, "sum": Sum}[w.Op]
	if reduce == nil {
		b.Fatalf("%s: unknown op %q", w.Name, w.Op)
	}
	var axes any
	if len(w.Axis) > 0 {
		if err := json.Unmarshal(w.Axis, &axes); err != nil {
			b.Fatal(err)
		}
	}
	var opts []ReduceOption
	switch a := axes.(type) {
	case float64:
		opts = append(opts, Axis(int(a)))
	case []any:
		ints := make([]int, len(a))
		for i, e := range a {
			ints[i] = int(e.(float64))
		}
		opts = append(opts, Axis(ints...))
	}
	return func() (*Tensor, error) { return reduce(x, opts...) }
}

// sweepOperand draws the workloads' distribution (floats uniform in
// [0.9999, 1.0001), integers in {1, 2}) in the stored shape sh, and returns
// its transposed view if transposed.
func sweepOperand(tb testing.TB, seed uint64, dt DType, sh []int, transposed bool) *Tensor {
	lo, hi := 0.9999, 1.0001
	if dt.IsInteger() {
		lo, hi = 1, 3
	}
	x, err := Rand(seed, dt, lo, hi, sh...)
	if err != nil {
		tb.Fatal(err)
	}
	if transposed {
		x = x.Transpose()
	}
	return x
}

// BenchmarkSweep times every workload of bench/sweep.json, reporting
// GFLOP/s or the bytes moved as the file counts them.
func BenchmarkSweep(b *testing.B) {
	for _, w := range readSweep(b) {
		b.Run(w.Name, func(b *testing.B) {
			if w.sparse() {
				b.Skip("a sparse operand: tensor bench runs it")
			}
			f := w.call(b)
			if w.Bytes > 0 {
				b.SetBytes(int64(w.Bytes))
			}
			for b.Loop() {
				if _, err := f(); err != nil {
					b.Fatal(err)
				}
			}
			if w.Flops > 0 {
				b.ReportMetric(w.Flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			}
		})
	}
}

// TestSweepFile runs the sweep's small workloads once, so that an entry
// this file cannot build fails the tests rather than the next benchmark.
func TestSweepFile(t *testing.T) {
	ws := readSweep(t)
	if len(ws) < 40 {
		t.Fatalf("bench/sweep.json has %d workloads, want the sweep (40 or more)", len(ws))
	}
	ran := 0
	for _, w := range ws {
		if w.sparse() || shapeSize(w.A)+shapeSize(w.B) > 1<<14 {
			continue
		}
		if _, err := w.call(t)(); err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
		ran++
	}
	if ran == 0 {
		t.Error("no sweep workload is small enough to run here")
	}
}

// sparse reports whether the workload has a sparse operand.
func (w sweepWorkload) sparse() bool { return w.ASparse != "" || w.BSparse != "" }

// shapeSize is the number of elements of shape s, as a float64 so that the
// sparse workloads' dense shapes (100000², beyond a 32-bit int) count as
// large rather than wrap to a small or negative int on 386.
func shapeSize(s []int) float64 {
	n := 1.0
	for _, d := range s {
		n *= float64(d)
	}
	return n
}
