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
	if *slowPaths {
		useFastMatmul = false
		ewise.UseVec = false
	}
	os.Exit(m.Run())
}
