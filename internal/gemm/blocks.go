package gemm

import "github.com/tensor-go/tensor/internal/kernels"

// The block sizes beside each kernel were measured on a core with a
// 48 KiB L1D and a 2 MiB L2 (Sapphire Rapids). On other cores they are
// scaled to the detected caches (kernels.CacheSizes) so that each block
// keeps the share of its cache it had there: kc with L1D, so that the
// mr×kc A sliver stays in L1 while B slivers stream past; nc and mc with
// L2 over kc, so that the kc×nc B panel and the mc×kc A block keep their
// share of L2. That model was measured wrong on Zen 3 (32 KiB, 512 KiB
// and a 32 MiB L3), where the AVX2 kernels run faster with a B panel four
// times L2 than with the scaled one; processors where the scaled blocks
// were measured to lose carry their own (measuredOn, and the tables
// beside the kernels).
const (
	tunedL1D = 48 << 10
	tunedL2  = 2 << 20
)

// scaledBlocks returns the block sizes for caches c of a kernel whose
// blocks, tuned for tunedL1D and tunedL2, are kc, mc and nc. Each factor
// is bounded to [1/8, 2] so that a misreported cache cannot make blocks
// degenerate or the workspaces huge; kc stays a multiple of 8 and at least
// 32, mc and nc multiples of mr and nr.
func scaledBlocks(mr, nr, kc, mc, nc int, c kernels.Caches) (int, int, int) {
	bound := func(f float64) float64 { return min(max(f, 1.0/8), 2) }
	l1 := bound(float64(c.L1D) / tunedL1D)
	l2 := bound(float64(c.L2) / tunedL2)
	kc2 := max(32, int(float64(kc)*l1)&^7)
	share := l2 * float64(kc) / float64(kc2) // the L2 blocks' other side, at the new kc
	mc2 := max(mr, int(float64(mc)*share)/mr*mr)
	nc2 := max(nr, int(float64(nc)*share)/nr*nr)
	return kc2, mc2, nc2
}

// blocks are a kernel's cache block sizes, as kernel's kc, mc and nc.
type blocks struct{ kc, mc, nc int }

// measuredOn returns the kernel with the blocks of the first entry of
// table that this processor matches, as they were measured there
// (unscaled), or the kernel unchanged where none does. It is for the
// processors on which the scaled blocks were measured to lose.
func (k *kernel[T]) measuredOn(table []kernels.Measured[blocks]) *kernel[T] {
	if b := kernels.ForProcessor(kernels.ProcessorID(), table, blocks{}); b != (blocks{}) {
		k.setBlocks(b.kc, b.mc, b.nc)
	}
	return k
}
