package tensor

import (
	"flag"
	"os"
	"testing"

	"github.com/tensor-go/tensor/internal/ewise"
)

// slowPaths runs the whole package with every fast path switched off: the
// plain blocked matmul kernel instead of the assembly GEMM, and the generic
// Go element-wise and reduction kernels instead of the vector ones. CI runs
// the suite once this way (go test . -args -slowpaths), so the reference
// paths that tests compare against are themselves kept correct.
var slowPaths = flag.Bool("slowpaths", false, "switch off every fast path (GEMM and vector kernels)")

func TestMain(m *testing.M) {
	flag.Parse()
	// Results that operations overwrite come from recycled, uncleared
	// memory in production; in tests they start as NaN/-1 bytes, so an
	// element a kernel forgets to write shows up in the values compared.
	// Benchmarks time what production does.
	poisonProductTensors = flag.Lookup("test.bench").Value.String() == ""
	if *slowPaths {
		useFastMatmul = false
		ewise.UseVec = false
	}
	os.Exit(m.Run())
}
