package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
)

// The dot-product kernels multiply bfloat16 products on processors with
// AVX512_BF16 (VDPBF16PS) and no AMX, with the float32 path's bits.
// VDPBF16PS adds to each float32 lane the two products of a pair of
// bfloat16, the pair's high one first, each as a fused multiply-add (the
// product is exact, the sum rounded once to nearest even), and flushes
// subnormal inputs and results to zero (measured on Zen 5, bit for bit
// against this model over 1.6 million random lanes). That is the float32
// kernels' FMA chain over K, provided that
//
//   - the pairs are swapped (prepare), so that k = 2p, now the high half,
//     is added before k = 2p+1;
//   - the sums fall into the float32 job's K blocks (kUnit 1 and its kc),
//     each summed from +0 and added to C afterwards (C + sum), as the
//     float32 micro-kernels do; a block that ends inside a pair or a step
//     is padded with zeros, and adding a +0 product changes no sum, which
//     starts at +0 and so is never −0;
//   - nothing is ever flushed. Every nonzero A and B element has a
//     magnitude of at least 2⁻⁵⁶ (prepare refuses the product otherwise,
//     and the widening path takes it, as for a subnormal on the tiles):
//     then every product is a multiple of 2⁻⁵⁶·2⁻⁷·2⁻⁵⁶·2⁻⁷ = 2⁻¹²⁶, so is
//     every partial sum (rounding a multiple of 2⁻¹²⁶ to float32 keeps it
//     one), and a nonzero multiple of 2⁻¹²⁶ is not subnormal.
//
// A NaN stays a NaN, but which of two NaNs a sum carries may differ from
// the float32 kernels' choice. The final rounding of a rounded product
// (VCVTNE2PS2BF16) is bfloat16.FromFloat32's: no sum is subnormal.

// dpStripRows is the rows of C one strip kernel call computes.
const dpStripRows = 8

// dpStripFunc computes dpStripRows rows by 32 columns of C from a packed
// A sliver at row 0 of the strip (row i at a + 32i, the next K step
// tileStepElems on) and a packed B panel (packTilesB's layout, pairs
// swapped by prepare), over steps K steps: the sums start at +0; with
// accumulate, C's elements are added to them (C + sum); with out nil they
// are stored to C, else rounded to bfloat16 into out. ldc and ldo are row
// strides in elements.
type dpStripFunc func(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, steps int, accumulate bool)

// dpAsmKernel is the assembly dot-product kernel where the processor has
// one (amd64 with AVX512_BF16), whether or not its set uses it, so that the
// tests run it wherever it can run; nil elsewhere.
var dpAsmKernel *tileKernel

// newDPKernel describes a dot-product kernel whose K blocks are those of
// the float32 kernel with K block kc.
func newDPKernel(name string, kc int, strip dpStripFunc, prepare func([]uint16) bool, pack tilePackers, minFlopsPerThread int) *tileKernel {
	k := newTileKernel(name, kc, dpMC, dpNC, dpTiles(strip), pack, minFlopsPerThread)
	// Below 32 rows or columns every block is an edge block, computed
	// through a buffer in Go: 24³ on one goroutine took 1.3-2.2 times the
	// widening path's time, 32³ 0.45-0.6 (Zen 5, load 17-20).
	k.kUnit, k.prepare, k.minSide = 1, prepare, tileBlock
	return k
}

// dpMC and dpNC are the dot-product kernels' M and N blocks: a 64-row A
// block of kc 384 is 48 KiB, the 1024-column B block 768 KiB of a 1 MiB
// L2, so that A is packed once per K block up to N = 1024. One goroutine,
// GFLOP per CPU-second (BenchmarkTileBlocks, Zen 5, load 18): 1024³
// 214-278 at mc 128, nc 512 against 288-299, 2048³ 238-244 against
// 257-272.
const (
	dpMC = 64
	dpNC = 1024
)

// dpTiles makes a tileKernelFunc of a strip kernel: each 32×32 block of C
// is four strips.
func dpTiles(strip dpStripFunc) tileKernelFunc {
	return func(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, _ *float32, steps, blocks, slivers int, accumulate bool) {
		// A strip (8 rows of a K block: 6 KiB at kc 384) stays in L1 while
		// the B panels stream past from L2.
		for r := range slivers {
			for s := 0; s < tileBlock; s += dpStripRows {
				ap := (*uint16)(unsafe.Add(unsafe.Pointer(a), (r*steps*tileStepElems+s*tileBlock)*2))
				for t := range blocks {
					bp := (*uint16)(unsafe.Add(unsafe.Pointer(b), t*steps*tileStepElems*2))
					var cp *float32
					if c != nil {
						cp = (*float32)(unsafe.Add(unsafe.Pointer(c), ((r*tileBlock+s)*ldc+t*tileBlock)*4))
					}
					var op *uint16
					if out != nil {
						op = (*uint16)(unsafe.Add(unsafe.Pointer(out), ((r*tileBlock+s)*ldo+t*tileBlock)*2))
					}
					strip(ap, bp, cp, ldc, op, ldo, steps, accumulate)
				}
			}
		}
	}
}

// dpStripGo is the Go twin of the strip kernels: each pair's high product
// (k = 2p after prepare's swap) added first, every step one rounding to
// float32 of the sum and the exact product. float64 holds the product
// exactly and the sum before rounding closely enough that rounding it to
// float32 is rounding the exact sum (one is at least 2²⁸ times the other
// or both fit in 53 bits: the products have 16 significant bits), so the
// double rounding changes nothing, nor does a fused multiply-add in
// float64 (arm64).
func dpStripGo(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, steps int, accumulate bool) {
	as := unsafe.Slice(a, (steps-1)*tileStepElems+dpStripRows*tileBlock)
	bs := unsafe.Slice(b, steps*tileStepElems)
	for i := range dpStripRows {
		var acc [tileBlock]float64 // each always a float32 value
		for st := range steps {
			ar := (*[tileBlock]uint16)(as[st*tileStepElems+i*tileBlock:])
			step := bs[st*tileStepElems : (st+1)*tileStepElems]
			for p := range tileBlock / 2 {
				lo := (*[tileBlock]uint16)(step[p*tileBlock:])
				hi := (*[tileBlock]uint16)(step[tileStepElems/2+p*tileBlock:])
				a0, a1 := float64(widenBF16(ar[2*p])), float64(widenBF16(ar[2*p+1]))
				for jj := range tileBlock / 2 {
					s, t := acc[jj], acc[16+jj]
					s = float64(float32(s + a1*float64(widenBF16(lo[2*jj+1]))))
					t = float64(float32(t + a1*float64(widenBF16(hi[2*jj+1]))))
					s = float64(float32(s + a0*float64(widenBF16(lo[2*jj]))))
					t = float64(float32(t + a0*float64(widenBF16(hi[2*jj]))))
					acc[jj], acc[16+jj] = s, t
				}
			}
		}
		var sums [tileBlock]float32
		for j, v := range acc {
			sums[j] = float32(v)
		}
		if accumulate {
			row := (*[tileBlock]float32)(unsafe.Add(unsafe.Pointer(c), i*ldc*4))
			for j := range sums {
				sums[j] = row[j] + sums[j]
			}
		}
		if out == nil {
			*(*[tileBlock]float32)(unsafe.Add(unsafe.Pointer(c), i*ldc*4)) = sums
			continue
		}
		row := (*[tileBlock]uint16)(unsafe.Add(unsafe.Pointer(out), i*ldo*2))
		for j, v := range sums {
			row[j] = bfloat16.FromFloat32(v).Bits()
		}
	}
}

// dpPrepareGo is the Go twin of the prepare kernels: it swaps the two
// bfloat16 of every pair of p (a whole number of steps) and reports
// whether one of them is nonzero with a magnitude below 2⁻⁵⁶ (its bits
// without the sign between 1 and 0x237f, biased exponent under 71).
func dpPrepareGo(p []uint16) bool {
	if len(p) == 0 {
		return false
	}
	const (
		halves = 0x0000_ffff_0000_ffff
		noSign = 0x7fff_7fff_7fff_7fff
		tops   = 0x8000_8000_8000_8000
		// Adding 0x7fff to a lane of at most 0x7fff sets its top bit when
		// it is not zero, adding 0x8000-0x2380 when it is at least 0x2380;
		// neither carries into the next lane.
		nonzero = 0x7fff_7fff_7fff_7fff
		atLeast = 0x5c80_5c80_5c80_5c80
	)
	ws := unsafe.Slice((*uint64)(unsafe.Pointer(&p[0])), len(p)/4)
	var tiny uint64
	for i, w := range ws {
		ws[i] = w>>16&halves | (w&halves)<<16
		v := w & noSign
		tiny |= (v + nonzero) &^ (v + atLeast)
	}
	return tiny&tops != 0
}
