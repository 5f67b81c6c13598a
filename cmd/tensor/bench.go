package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/storage"
)

// defaultWorkloads is a copy of the project's shared
// bench/workloads.json, so that the binary benchmarks on its own.
//
//go:embed workloads.json
var defaultWorkloads []byte

// workload is one entry of workloads.json; see its "about" text.
type workload struct {
	Name      string          `json:"name"`
	Op        string          `json:"op"`
	A         []int           `json:"a"`
	B         []int           `json:"b"`
	DType     string          `json:"dtype"`
	BDType    string          `json:"bdtype"`
	Axis      json.RawMessage `json:"axis"`
	Transpose bool            `json:"transpose"`
	ASparse   string          `json:"a_sparse"`
	BSparse   string          `json:"b_sparse"`
	ANnz      int             `json:"a_nnz"`
	BNnz      int             `json:"b_nnz"`
	Flops     float64         `json:"flops"`
	Bytes     float64         `json:"bytes"`
}

type benchArgs struct {
	workloads []byte
	threads   int
	reps      int
	warmup    int // calls before timing; 0 means reps+1 (see warmupCalls)
	filters   []string
}

// warmupCalls is how many untimed calls precede the timed ones. By default
// it is reps+1, the state PyTorch is timed in by peers.py: the script builds
// each workload's arrays once and times NumPy (one warm-up call and reps
// timed ones) before PyTorch on the same arrays. Here the first passes over
// fresh operands run up to three times slower than later ones (a 64 MiB
// product reduction 4–6 ms, then 1.5 ms after about ten passes, whatever
// the library), and the memory pool wins results back only after its first
// collections. --warmup 1 reproduces the conditions NumPy is timed in.
func (b *benchArgs) warmupCalls() int {
	if b.warmup > 0 {
		return b.warmup
	}
	return b.reps + 1
}

func parseBenchArgs(args []string) (*benchArgs, error) {
	b := &benchArgs{workloads: defaultWorkloads, threads: runtime.NumCPU(), reps: 5}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "-") {
			b.filters = append(b.filters, arg)
			continue
		}
		if arg == "--" {
			b.filters = append(b.filters, args[i+1:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		name = strings.TrimPrefix(name, "-")
		if name == "h" || name == "help" {
			return nil, usagef("usage: tensor bench [--workloads FILE] [--threads N] [--reps R] [--warmup W] [FILTER ...]")
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, usagef("bench: flag %s needs a value", arg)
			}
			i++
			value = args[i]
		}
		switch name {
		case "workloads":
			data, err := os.ReadFile(value)
			if err != nil {
				return nil, fmt.Errorf("tensor: bench: %w", err)
			}
			b.workloads = data
		case "threads", "reps", "warmup":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, usagef("bench: --%s must be a positive integer, not %q", name, value)
			}
			switch name {
			case "threads":
				b.threads = n
			case "reps":
				b.reps = n
			default:
				b.warmup = n
			}
		default:
			return nil, usagef("bench: unknown flag %s", arg)
		}
	}
	return b, nil
}

func runBench(args []string, stdout io.Writer) error {
	b, err := parseBenchArgs(args)
	if err != nil {
		return err
	}
	var file struct {
		Workloads []workload `json:"workloads"`
	}
	if err := json.Unmarshal(b.workloads, &file); err != nil {
		return fmt.Errorf("tensor: bench: workloads: %w", err)
	}
	runtime.GOMAXPROCS(b.threads)
	for _, w := range file.Workloads {
		if len(b.filters) > 0 && !slices.ContainsFunc(b.filters, func(f string) bool { return strings.Contains(w.Name, f) }) {
			continue
		}
		line := benchOne(w, b)
		if _, err := fmt.Fprintln(stdout, line); err != nil {
			return err
		}
		// Drop this workload's operands before the next one allocates its
		// own. A collection is enough: the memory stays mapped for the next
		// workload, as a C peer's freed blocks stay with its malloc
		// (debug.FreeOSMemory would hand every page back to the kernel and
		// make the next workload fault each one in again).
		runtime.GC()
	}
	return nil
}

// benchOne times one workload and returns its JSON line.
func benchOne(w workload, b *benchArgs) string {
	call, err := prepare(w)
	if err != nil {
		return jsonLine("lib", "tensor", "name", w.Name, "error", err.Error())
	}
	secs, err := medianTime(call, b.warmupCalls(), b.reps)
	if err != nil {
		return jsonLine("lib", "tensor", "name", w.Name, "error", err.Error())
	}
	fields := []any{"lib", "tensor", "name", w.Name, "threads", b.threads, "seconds", secs}
	if w.Flops > 0 {
		fields = append(fields, "gflops", round2(w.Flops/secs/1e9))
	}
	if w.Bytes > 0 {
		fields = append(fields, "gbps", round2(w.Bytes/secs/1e9))
	}
	return jsonLine(fields...)
}

// medianTime calls f warmup times, then reps times, and returns the
// median duration of the reps timed calls in seconds, as the peers script
// does. Each call releases its result (see released), as NumPy's reference
// counting frees it. Results that cannot be released (sparse ones) are
// left to the collector: before the last warm-up call medianTime collects
// garbage and waits for the memory pool to win back what the warm-up calls
// dropped, as Go's testing package collects before each timed run, so that
// the timed calls do not fault in fresh memory (~1.5 µs a 4 KiB page on
// this VM) as a loop's first calls would. After the collection the last
// warm-up call is repeated for settleTime, so that the timed calls do not
// start on cores that were idle while it ran, or on threads it left
// sharing one core (see settleTime).
func medianTime(f func() error, warmup, reps int) (float64, error) {
	for range warmup - 1 {
		if err := f(); err != nil {
			return 0, err
		}
	}
	storage.Collect()
	for start := time.Now(); ; {
		if err := f(); err != nil {
			return 0, err
		}
		if time.Since(start) >= settleTime {
			break
		}
	}
	ts := make([]float64, reps)
	for i := range ts {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ts[i] = time.Since(start).Seconds()
	}
	slices.Sort(ts)
	return ts[len(ts)/2], nil
}

// settleTime is how long the calls after the collection run before the
// timed ones. Blocked during the collection, the caller's thread often
// comes back on the core where a parallel helper polls, and Linux takes a
// few milliseconds to move one of them: the 16384 8×8 batch ran its first
// four to six calls after the collection at one core's speed (470 µs
// instead of 240), so that one benchmark run in five reported that. A
// variable so that tests can count calls.
var settleTime = 10 * time.Millisecond

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// released drops a timed call's result as the peers drop theirs. NumPy and
// PyTorch free a result when its reference count falls to zero, and their
// next result reuses the block, still in cache; Release is how a Go
// program says the same, so that the memory goes straight to the next
// result instead of waiting for a collection (see Tensor.Release).
func released(t *tensor.Tensor, err error) error {
	t.Release()
	return err
}

// prepare builds a workload's operands and returns the timed call.
func prepare(w workload) (func() error, error) {
	a, err := operandOf(w.A, w.ASparse, w.ANnz, w.DType, 1)
	if err != nil {
		return nil, err
	}
	if w.Transpose {
		a = a.Transpose()
	}
	var b *tensor.Tensor
	if w.B != nil {
		bdt := w.DType
		if w.BDType != "" {
			bdt = w.BDType
		}
		if b, err = operandOf(w.B, w.BSparse, w.BNnz, bdt, 2); err != nil {
			return nil, err
		}
	}
	switch w.Op {
	case "matmul":
		return func() error { return released(tensor.Matmul(a, b)) }, nil
	case "mul":
		return func() error { return released(tensor.Mul(a, b)) }, nil
	case "prod":
		opts, err := axisOptions(w.Axis)
		if err != nil {
			return nil, err
		}
		return func() error { return released(tensor.Prod(a, opts...)) }, nil
	}
	return nil, fmt.Errorf("unknown op %q", w.Op)
}

// operand draws the workload's input distribution: floats uniform in
// [0.9999, 1.0001), so products stay normal; integers uniform in {1, 2}.
func operand(shape []int, name string, seed uint64) (*tensor.Tensor, error) {
	dt, err := dtype.Parse(name)
	if err != nil {
		return nil, err
	}
	if dt.IsFloat() || dt.IsComplex() {
		return tensor.Rand(seed, dt, 0.9999, 1.0001, shape...)
	}
	return tensor.Rand(seed, dt, 1, 3, shape...)
}

// operandOf returns a dense operand, or a sparse one when layout is "csr"
// or "coo".
func operandOf(shape []int, layout string, nnz int, name string, seed uint64) (*tensor.Tensor, error) {
	if layout == "" {
		return operand(shape, name, seed)
	}
	return sparseOperand(shape, layout, nnz, name, seed)
}

// sparseOperand draws a sparse matrix with nnz entries at distinct
// positions uniform over the shape (seeded), their values drawn as operand
// draws dense ones.
func sparseOperand(shape []int, layout string, nnz int, name string, seed uint64) (*tensor.Tensor, error) {
	if len(shape) != 2 || shape[0] < 0 || shape[1] < 0 {
		return nil, fmt.Errorf("sparse operand of shape %v: want two dimensions", shape)
	}
	total := uint64(shape[0]) * uint64(shape[1])
	if nnz < 0 || uint64(nnz) > total {
		return nil, fmt.Errorf("%d entries do not fit shape %v", nnz, shape)
	}
	pos := distinctPositions(rand.New(rand.NewPCG(seed, 0x5ba75e)), nnz, total)
	rows, cols := make([]int64, nnz), make([]int64, nnz)
	for i, p := range pos {
		rows[i], cols[i] = int64(p/uint64(shape[1])), int64(p%uint64(shape[1]))
	}
	vals, err := operand([]int{nnz}, name, seed)
	if err != nil {
		return nil, err
	}
	s, err := tensor.NewSparseCOO(rows, cols, vals, shape...)
	if err != nil {
		return nil, err
	}
	switch layout {
	case "coo":
		return s, nil
	case "csr":
		return s.ToSparseCSR()
	}
	return nil, fmt.Errorf("unknown sparse layout %q", layout)
}

// distinctPositions returns n distinct numbers uniform in [0, total), in
// increasing order: draws are sorted and deduplicated, and the shortfall
// drawn again until none is missing. When n is over half of total, that
// would converge slowly, so a shuffled prefix of all positions is taken.
func distinctPositions(rng *rand.Rand, n int, total uint64) []uint64 {
	if uint64(n) > total/2 {
		all := make([]uint64, total)
		for i := range all {
			all[i] = uint64(i)
		}
		for i := range n { // a partial Fisher-Yates shuffle
			j := i + rng.IntN(len(all)-i)
			all[i], all[j] = all[j], all[i]
		}
		pos := all[:n]
		slices.Sort(pos)
		return pos
	}
	pos := make([]uint64, 0, n)
	for len(pos) < n {
		for range n - len(pos) {
			pos = append(pos, rng.Uint64N(total))
		}
		slices.Sort(pos)
		pos = slices.Compact(pos)
	}
	return pos
}

// axisOptions converts the prod workload's axis (null, an int or a list).
func axisOptions(raw json.RawMessage) ([]tensor.ReduceOption, error) {
	var v any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case float64:
		return []tensor.ReduceOption{tensor.Axis(int(v))}, nil
	case []any:
		axes := make([]int, len(v))
		for i, e := range v {
			f, ok := e.(float64)
			if !ok {
				return nil, fmt.Errorf("axis %v is not a list of ints", v)
			}
			axes[i] = int(f)
		}
		return []tensor.ReduceOption{tensor.Axis(axes...)}, nil
	}
	return nil, fmt.Errorf("axis %v is not null, an int or a list", v)
}

// jsonLine formats key/value pairs as one JSON object with the spacing of
// Python's json.dumps, so that lines compare with the peers script's.
func jsonLine(kv ...any) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			sb.WriteString(", ")
		}
		key, _ := json.Marshal(kv[i])
		sb.Write(key)
		sb.WriteString(": ")
		switch v := kv[i+1].(type) {
		case float64:
			sb.WriteString(pyFloat(v))
		default:
			val, _ := json.Marshal(v)
			sb.Write(val)
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

// pyFloat formats f as Python's repr does for finite floats.
func pyFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null" // not valid JSON otherwise; cannot happen for timings
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if abs := math.Abs(f); abs >= 1e16 || abs != 0 && abs < 1e-4 {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		if len(exp) == 2 {
			exp = exp[:1] + "0" + exp[1:]
		}
		return mant + "e" + exp
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
