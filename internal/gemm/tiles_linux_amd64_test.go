package gemm

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"unsafe"
)

// tileDataGranted reports whether Linux has granted this process the AMX
// tile data (ARCH_GET_XCOMP_PERM lists XFEATURE_XTILEDATA, bit 18).
func tileDataGranted(t *testing.T) bool {
	const archGetXcompPerm = 0x1022
	var mask uint64
	if _, _, errno := syscall.RawSyscall(syscall.SYS_ARCH_PRCTL, archGetXcompPerm, uintptr(unsafe.Pointer(&mask)), 0); errno != 0 {
		t.Skipf("ARCH_GET_XCOMP_PERM: %v", errno)
	}
	return mask&(1<<18) != 0
}

// TestTileDataAskedLazily runs this test binary again, alone, so that
// nothing but package initialisation has run when it looks: importing the
// package must not have asked Linux for the tile data (a grant is for the
// whole process and makes Linux refuse small signal stacks from then on);
// a float32 product and a small bfloat16 one must not ask either, and the
// first bfloat16 product on the tiles must.
func TestTileDataAskedLazily(t *testing.T) {
	if os.Getenv("GEMM_TILE_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTileDataAskedLazily$", "-test.v")
		cmd.Env = append(os.Environ(), "GEMM_TILE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		t.Logf("child:\n%s", out)
		return
	}
	if tileDataGranted(t) {
		t.Fatal("the tile data was granted before any product")
	}
	rng := rand.New(rand.NewPCG(23, 40))
	const m, n, k = 64, 64, 64
	f := Matrix[float32]{make([]float32, m*k), 0, k, 1}
	Mul(m, n, k, f, f, Matrix[float32]{make([]float32, m*n), 0, n, 1}, Options{})
	a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
	MulHalf(BFloat16, 8, 8, 8, a, b, Matrix[float32]{make([]float32, m*n), 0, n, 1}, Options{})
	if tileDataGranted(t) {
		t.Fatal("the tile data was asked for by a product that does not use the tiles")
	}
	MulHalf(BFloat16, m, n, k, a, b, Matrix[float32]{make([]float32, m*n), 0, n, 1}, Options{})
	// Only a kernel with a permission to ask (AMX) asks; the
	// dot-product kernels need none.
	if got, want := tileDataGranted(t), active.bf16 != nil && active.bf16.permitted != nil && active.bf16.usable(); got != want {
		t.Fatalf("after a bfloat16 product with tiles %v: granted %v", want, got)
	}
	t.Logf("tiles in use: %v", active.bf16 != nil && active.bf16.usable())
}
