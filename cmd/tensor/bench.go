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
)

// defaultWorkloads is a copy of the project's shared
// bench/workloads.json, so that the binary benchmarks on its own.
//
//go:embed workloads.json
var defaultWorkloads []byte

// workload is one entry of workloads.json; see its "about" text.
type workload struct {
	Name       string          `json:"name"`
	Op         string          `json:"op"`
	A          []int           `json:"a"`
	B          []int           `json:"b"`
	DType      string          `json:"dtype"`
	BDType     string          `json:"bdtype"`
	Axis       json.RawMessage `json:"axis"`
	Transpose  bool            `json:"transpose"`
	BTranspose bool            `json:"b_transpose"`
	ASparse    string          `json:"a_sparse"`
	BSparse    string          `json:"b_sparse"`
	ANnz       int             `json:"a_nnz"`
	BNnz       int             `json:"b_nnz"`
	Flops      float64         `json:"flops"`
	Bytes      float64         `json:"bytes"`

	// The sweep's per-call workloads (bench/sweep.json's "about"):
	// a weak Go scalar as the second operand, AsType's target dtype,
	// Reshape's shape and the rows [lo, hi) a Slice keeps.
	Scalar *float64 `json:"scalar"`
	To     string   `json:"to"`
	Shape  []int    `json:"shape"`
	Rows   []int    `json:"rows"`
}

type benchArgs struct {
	workloads []byte
	threads   int
	budget    time.Duration // per workload: three blocks of a third each
	variant   string        // "" (plain loop), "release" or "into"
	filters   []string
}

const benchUsage = "usage: tensor bench [--workloads FILE] [--threads N] [--budget SECONDS] [--release|--into] [FILTER ...]"

func parseBenchArgs(args []string) (*benchArgs, error) {
	b := &benchArgs{workloads: defaultWorkloads, threads: runtime.NumCPU(), budget: 900 * time.Millisecond}
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
		switch name {
		case "h", "help":
			return nil, usagef("%s", benchUsage)
		case "release", "into":
			if hasValue {
				return nil, usagef("bench: flag --%s takes no value", name)
			}
			if b.variant != "" && b.variant != name {
				return nil, usagef("bench: --release and --into exclude each other")
			}
			b.variant = name
			continue
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
		case "threads":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, usagef("bench: --%s must be a positive integer, not %q", name, value)
			}
			b.threads = n
		case "budget":
			s, err := strconv.ParseFloat(value, 64)
			if err != nil || !(s > 0) || s > 3600 {
				return nil, usagef("bench: --budget must be a positive number of seconds, not %q", value)
			}
			b.budget = time.Duration(s * float64(time.Second))
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
	if err := checkFilters(b.filters, file.Workloads); err != nil {
		return err
	}
	runtime.GOMAXPROCS(b.threads)
	for _, w := range file.Workloads {
		if len(b.filters) > 0 && !slices.ContainsFunc(b.filters, func(f string) bool { return strings.Contains(w.Name, f) }) {
			continue
		}
		if _, err := fmt.Fprintln(stdout, benchOne(w, b)); err != nil {
			return err
		}
	}
	return nil
}

// benchOne times one workload and returns its JSON line: the peers
// script's fields, then which kernel set ran and, for --release and
// --into, the variant.
func benchOne(w workload, b *benchArgs) string {
	fail := func(err error) string {
		return jsonLine("lib", "tensor", "name", w.Name, "error", err.Error())
	}
	call, err := prepare(w, b.variant)
	if err != nil {
		return fail(err)
	}
	secs, err := loopTime(call, b.budget)
	if err != nil {
		return fail(err)
	}
	fields := []any{"lib", "tensor", "name", w.Name, "threads", b.threads, "seconds", secs}
	if w.Flops > 0 {
		fields = append(fields, "gflops", round2(w.Flops/secs/1e9))
	}
	if w.Bytes > 0 {
		fields = append(fields, "gbps", round2(w.Bytes/secs/1e9))
	}
	fields = append(fields, "kernels", tensor.KernelSet())
	if b.variant != "" {
		fields = append(fields, "variant", b.variant)
	}
	return jsonLine(fields...)
}

// loopTime is the peers script's protocol (peers.py --budget), the loop a
// user writes: one untimed call, then three blocks, each calling f until a
// third of budget has passed (at least once); a block's figure is its mean
// time per call, and the best block's is returned, in seconds. Nothing
// else happens between calls: no collection, no settling, results dropped.
func loopTime(f func() error, budget time.Duration) (float64, error) {
	return loopTimeOn(time.Now, f, budget)
}

// loopTimeOn is loopTime reading the time from now, so that its test can
// give it a clock that a loaded machine cannot disturb.
func loopTimeOn(now func() time.Time, f func() error, budget time.Duration) (float64, error) {
	if err := f(); err != nil {
		return 0, err
	}
	best := math.Inf(1)
	for range 3 {
		n, start := 0, now()
		for n == 0 || now().Sub(start) < budget/3 {
			if err := f(); err != nil {
				return 0, err
			}
			n++
		}
		best = min(best, now().Sub(start).Seconds()/float64(n))
	}
	return best, nil
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// prepare builds a workload's operands and returns the timed call. With
// variant "" the call drops its result, as a plain loop does; "release"
// hands it back with Tensor.Release; "into" writes every call into one
// output made beforehand (dense results only).
func prepare(w workload, variant string) (func() error, error) {
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
		if w.BTranspose {
			b = b.Transpose()
		}
	}
	var op func() (*tensor.Tensor, error)
	var into func(out *tensor.Tensor) error
	switch w.Op {
	case "matmul":
		op = func() (*tensor.Tensor, error) { return tensor.Matmul(a, b) }
		into = func(out *tensor.Tensor) error { return tensor.MatmulInto(out, a, b) }
	case "mul":
		op = func() (*tensor.Tensor, error) { return tensor.Mul(a, b) }
		into = func(out *tensor.Tensor) error { return tensor.MulInto(out, a, b) }
	case "add":
		op = func() (*tensor.Tensor, error) { return tensor.Add(a, b) }
		into = func(out *tensor.Tensor) error { return tensor.AddInto(out, a, b) }
	case "sub":
		op = func() (*tensor.Tensor, error) { return tensor.Sub(a, b) }
		into = func(out *tensor.Tensor) error { return tensor.SubInto(out, a, b) }
	case "neg":
		op = func() (*tensor.Tensor, error) { return tensor.Neg(a) }
		into = func(out *tensor.Tensor) error { return tensor.NegInto(out, a) }
	case "astype":
		to, err := dtype.Parse(w.To)
		if err != nil {
			return nil, err
		}
		op = func() (*tensor.Tensor, error) { return a.AsType(to) }
		into = func(out *tensor.Tensor) error { return tensor.Copy(out, a) }
	case "reshape":
		op = func() (*tensor.Tensor, error) { return a.Reshape(w.Shape...) }
	case "transpose":
		op = func() (*tensor.Tensor, error) { return a.Transpose(), nil }
	case "slice":
		if len(w.Rows) != 2 {
			return nil, fmt.Errorf("slice: rows %v: want [lo, hi]", w.Rows)
		}
		op = func() (*tensor.Tensor, error) { return a.Slice(tensor.Span(w.Rows[0], w.Rows[1])) }
	case "prod", "sum":
		opts, err := axisOptions(w.Axis)
		if err != nil {
			return nil, err
		}
		reduce, reduceInto := tensor.Prod, tensor.ProdInto
		if w.Op == "sum" {
			reduce, reduceInto = tensor.Sum, tensor.SumInto
		}
		op = func() (*tensor.Tensor, error) { return reduce(a, opts...) }
		into = func(out *tensor.Tensor) error { return reduceInto(out, a, opts...) }
	default:
		return nil, fmt.Errorf("unknown op %q", w.Op)
	}
	if w.Scalar != nil {
		if b != nil {
			return nil, fmt.Errorf("a scalar and a b operand both")
		}
		x, s := a, *w.Scalar
		switch w.Op {
		case "mul":
			op = func() (*tensor.Tensor, error) { return tensor.Mul(x, s) }
			into = func(out *tensor.Tensor) error { return tensor.MulInto(out, x, s) }
		case "add":
			op = func() (*tensor.Tensor, error) { return tensor.Add(x, s) }
			into = func(out *tensor.Tensor) error { return tensor.AddInto(out, x, s) }
		case "sub":
			op = func() (*tensor.Tensor, error) { return tensor.Sub(x, s) }
			into = func(out *tensor.Tensor) error { return tensor.SubInto(out, x, s) }
		default:
			return nil, fmt.Errorf("op %q takes no scalar", w.Op)
		}
	}
	if into == nil && variant == "into" {
		return nil, fmt.Errorf("--into: %s returns a view, which nothing is written into", w.Op)
	}
	switch variant {
	case "release":
		return func() error {
			t, err := op()
			t.Release()
			return err
		}, nil
	case "into":
		out, err := op()
		if err != nil {
			return nil, err
		}
		if out.Layout() != tensor.Strided {
			return nil, fmt.Errorf("--into: the result is %s, and only dense results can be written into", out.Layout())
		}
		return func() error { return into(out) }, nil
	}
	return func() error {
		_, err := op()
		return err
	}, nil
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
