package gemm

import (
	"encoding/binary"
	"unsafe"

	"github.com/tensor-go/tensor/internal/scratch"
)

// Products of narrow integers (the root's int8, uint8 and int16 matmul,
// whose values are int16's) on kernels that multiply int16 in pairs:
// AVX512_VNNI's VPDPWSSD adds the two products of the 16-bit halves of an
// int32 lane to it, 32 multiply-adds an instruction, where the int32
// kernels take a VPMULLD (two micro-operations on one port) and a VPADDD
// for 16. A and B are rewritten with the pairs of K side by side in a
// lane, element 2p in the low half and 2p+1 in the high one, so that K
// halves and the int32 driver, packing and tiles serve unchanged.
//
// Each product of two int16 is exact in int32 and the sums wrap modulo
// 2^32, so C is bit for bit the int32 product of the widened operands
// (Mul[int32]): addition modulo 2^32 does not depend on the grouping.

// pairsMinSide and pairsMinWork bound the products that take the pairs:
// rewriting A and B costs a pass over each (and an allocation), which a
// small product does not earn back. One goroutine, GFLOP per CPU-second
// against Mul[int32] (BenchmarkMulInt16, Emerald Rapids, load 15): 32³
// 19 against 32, 64³ 45 against 40, 100³ 79 against 31, 256³ 163
// against 43, 1024³ 174 against 39.
const (
	pairsMinSide = 16
	pairsMinWork = 64 * 64 * 64
)

// Int16Pairs reports whether MulNarrow takes an m×n×k product: the active
// kernel set has a kernel of int16 pairs and the product is large enough.
func Int16Pairs(m, n, k int) bool {
	return active.pairs16 != nil && usePairs(m, n, k)
}

func usePairs(m, n, k int) bool {
	return m >= pairsMinSide && n >= pairsMinSide && k >= 2 && float64(m)*float64(n)*float64(k) >= pairsMinWork
}

// Narrow is the element types whose values are all int16's.
type Narrow interface{ int8 | uint8 | int16 }

// MulNarrow computes C = A·B for an m×k A and a k×n B of narrow integers
// into the m×n int32 C, each product exact and the sums wrapping modulo
// 2^32 (the bits of Mul[int32] on the operands widened to int32), and
// reports true; it reports false and leaves C alone when Int16Pairs(m, n,
// k) is false. C must not overlap A or B.
func MulNarrow[A, B Narrow](m, n, k int, a Matrix[A], b Matrix[B], c Matrix[int32], opt Options) bool {
	if !Int16Pairs(m, n, k) {
		return false
	}
	mulPairs(active.pairs16, m, n, k, a, b, c, opt)
	return true
}

// mulPairs is MulNarrow on the pairs kernel kern.
func mulPairs[A, B Narrow](kern *kernel[int32], m, n, k int, a Matrix[A], b Matrix[B], c Matrix[int32], opt Options) {
	mustFit("C", c, m, n)
	mustFit("A", a, m, k)
	mustFit("B", b, k, n)
	k2 := ceilDiv(k, 2)
	bufs := pairSpare.Get()
	j := newJob(kern, m, n, k2, pairRows(&bufs.a, a, m, k), pairColumns(&bufs.b, b, k, n), c)
	j.parallel(opt.threads())
	if cap(bufs.a)+cap(bufs.b) > maxKeptPairs {
		bufs.a, bufs.b = nil, nil
	}
	pairSpare.Put(bufs)
}

// pairBuffers holds a product's rewritten A and B between calls: fresh
// ones cost their clearing and page faults each call, as much as the
// rewrite itself at 256³ (Emerald Rapids).
type pairBuffers struct{ a, b []int32 }

var pairSpare = &scratch.List[pairBuffers]{New: func() *pairBuffers { return new(pairBuffers) }}

// maxKeptPairs is the most int32 lanes a kept pairBuffers holds (4 MiB):
// a larger product's rewrite is short beside its product and need not
// hold memory for the life of the program.
const maxKeptPairs = 1 << 20

// pair is the int32 lane of the pair (lo, hi): lo in the low half.
func pair[T Narrow](lo, hi T) int32 {
	return int32(uint32(uint16(int16(lo))) | uint32(uint16(int16(hi)))<<16)
}

// pairRows returns A with each row's pairs of elements (2p, 2p+1) as one
// int32 (the last padded with 0 when k is odd): an m×ceil(k/2) matrix. A
// row-major int16 A of even k and row stride, 4-byte aligned, already is
// that matrix in memory and is read as it is; any other is copied.
func pairRows[T Narrow](buf *[]int32, a Matrix[T], m, k int) Matrix[int32] {
	k2 := ceilDiv(k, 2)
	if a16, ok := any(a).(Matrix[int16]); ok && a.CS == 1 && k%2 == 0 && a.RS%2 == 0 && a.Off%2 == 0 && a.RS > 0 &&
		len(a.Data) >= 2 && uintptr(unsafe.Pointer(&a16.Data[0]))%4 == 0 && littleEndian {
		words := unsafe.Slice((*int32)(unsafe.Pointer(&a16.Data[0])), len(a.Data)/2)
		return Matrix[int32]{words, a.Off / 2, a.RS / 2, 1}
	}
	*buf = scratch.Grow(*buf, m*k2)
	dst := *buf
	for i := range m {
		row := dst[i*k2 : (i+1)*k2]
		at := a.Off + i*a.RS
		if bytes, signed, ok := bytesOf(a, at, k); ok {
			active.pairBytes(row, bytes, signed)
			continue
		}
		if a.CS == 1 {
			src := a.Data[at : at+k]
			for p := range k / 2 {
				row[p] = pair(src[2*p], src[2*p+1])
			}
			if k%2 == 1 {
				row[k2-1] = pair(src[k-1], 0)
			}
			continue
		}
		for p := range row {
			var hi T
			if 2*p+1 < k {
				hi = a.Data[at+(2*p+1)*a.CS]
			}
			row[p] = pair(a.Data[at+2*p*a.CS], hi)
		}
	}
	return Matrix[int32]{dst, 0, k2, 1}
}

// pairColumns returns B with each column's pairs of elements (2p, 2p+1)
// as one int32 (the last padded with 0 when k is odd): a ceil(k/2)×n
// row-major matrix.
func pairColumns[T Narrow](buf *[]int32, b Matrix[T], k, n int) Matrix[int32] {
	k2 := ceilDiv(k, 2)
	*buf = scratch.Grow(*buf, k2*n)
	dst := *buf
	for p := range k2 {
		row := dst[p*n : (p+1)*n]
		lo := b.Off + 2*p*b.RS
		if 2*p+1 == k {
			for j := range row {
				row[j] = pair(b.Data[lo+j*b.CS], 0)
			}
			continue
		}
		hi := lo + b.RS
		if l, signed, ok := bytesOf(b, lo, n); ok {
			h, _, _ := bytesOf(b, hi, n)
			active.interleaveBytes(row, l, h, signed)
			continue
		}
		if b.CS == 1 {
			l, h := b.Data[lo:lo+n], b.Data[hi:hi+n]
			for j := range row {
				row[j] = pair(l[j], h[j])
			}
			continue
		}
		for j := range row {
			row[j] = pair(b.Data[lo+j*b.CS], b.Data[hi+j*b.CS])
		}
	}
	return Matrix[int32]{dst, 0, n, 1}
}

// bytesOf returns the n contiguous elements of x from index at as bytes,
// and whether they are signed, when x is of int8 or uint8 with unit column
// stride; ok is false otherwise.
func bytesOf[T Narrow](x Matrix[T], at, n int) (b []byte, signed, ok bool) {
	if x.CS != 1 {
		return nil, false, false
	}
	switch d := any(x.Data).(type) {
	case []uint8:
		return d[at : at+n], false, true
	case []int8:
		s := d[at : at+n]
		if n == 0 {
			return nil, true, true
		}
		return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n), true, true
	}
	return nil, false, false
}

// The byte rewrites below work four bytes at a time in a uint64 (four
// lanes of int16) instead of an element at a time: 0.8-1 ns of CPU a byte
// on Emerald Rapids at load 13-15, which for 256² int8 operands is still
// about a third of a 256³ product's CPU, the kernel half of it.

// spread returns the four bytes of w (low first) as the four 16-bit lanes
// of a uint64, sign-extended when signed: two int32 lanes of pairs.
func spread(w uint32, signed bool) uint64 {
	v := uint64(w)
	v = (v | v<<16) & 0x0000_ffff_0000_ffff
	v = (v | v<<8) & 0x00ff_00ff_00ff_00ff
	if signed {
		// Bit 7 of each lane times 0x1fe is 0xff00 in that lane alone.
		v |= (v & 0x0080_0080_0080_0080) * 0x1fe
	}
	return v
}

// pairBytes writes the pairs of src (2p, 2p+1), the last padded with 0
// when len(src) is odd, to dst (ceil(len(src)/2) lanes).
func pairBytes(dst []int32, src []byte, signed bool) {
	q := 0
	for ; q+4 <= len(src); q += 4 {
		v := spread(binary.LittleEndian.Uint32(src[q:]), signed)
		dst[q/2], dst[q/2+1] = int32(uint32(v)), int32(uint32(v>>32))
	}
	for ; q < len(src); q += 2 {
		var w uint32
		if q+1 < len(src) {
			w = uint32(src[q+1]) << 8
		}
		dst[q/2] = int32(uint32(spread(w|uint32(src[q]), signed)))
	}
}

// interleaveBytes writes the pairs (lo[j], hi[j]) to dst[j].
func interleaveBytes(dst []int32, lo, hi []byte, signed bool) {
	j := 0
	for ; j+4 <= len(lo); j += 4 {
		w := spread(binary.LittleEndian.Uint32(lo[j:]), false) | spread(binary.LittleEndian.Uint32(hi[j:]), false)<<8
		v0, v1 := spread(uint32(w), signed), spread(uint32(w>>32), signed)
		dst[j], dst[j+1] = int32(uint32(v0)), int32(uint32(v0>>32))
		dst[j+2], dst[j+3] = int32(uint32(v1)), int32(uint32(v1>>32))
	}
	for ; j < len(lo); j++ {
		dst[j] = int32(uint32(spread(uint32(lo[j])|uint32(hi[j])<<8, signed)))
	}
}

// littleEndian: the pairs of a row-major int16 A are its int32 words
// only when the low address holds the low half.
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// dot2 is one VPDPWSSD lane: the products of the signed 16-bit halves of
// a and b, added with int32's wrapping.
func dot2(a, b int32) int32 {
	return int32(int16(a))*int32(int16(b)) + (a>>16)*(b>>16)
}

// goKernelPairs is the Go kernel of int16 pairs: the twin of the
// assembly ones, in the tests. No set takes it: on the Go kernels the
// pairs would halve the steps but not the multiplies.
var goKernelPairs = newKernel("go-i16x2-4x8", 4, 8, 256, 128, 512, microPairsGo(4, 8))

// microPairsGo returns the Go twin of an mr×nr micro-kernel of int16
// pairs (mr even, nr a multiple of 4): microGo with each product a[·]·b[·]
// replaced by dot2, the sums wrapping as VPDPWSSD's do.
func microPairsGo(mr, nr int) microKernel[int32] {
	if mr%2 != 0 || nr%4 != 0 {
		panic("gemm: the Go pairs kernel needs an even mr and nr a multiple of 4")
	}
	return func(k int, a, b, c *int32, ldc int, accumulate bool) {
		for i := 0; i < mr; i += 2 {
			for j := 0; j < nr; j += 4 {
				var s [8]int32
				if k > 0 {
					s = pairs2x4(k, mr, nr, unsafe.Add(unsafe.Pointer(a), i*4), unsafe.Add(unsafe.Pointer(b), j*4))
				}
				row0 := (*[4]int32)(unsafe.Add(unsafe.Pointer(c), (i*ldc+j)*4))
				row1 := (*[4]int32)(unsafe.Add(unsafe.Pointer(c), ((i+1)*ldc+j)*4))
				if accumulate {
					s[0], s[1], s[2], s[3] = row0[0]+s[0], row0[1]+s[1], row0[2]+s[2], row0[3]+s[3]
					s[4], s[5], s[6], s[7] = row1[0]+s[4], row1[1]+s[5], row1[2]+s[6], row1[3]+s[7]
				}
				*row0 = [4]int32{s[0], s[1], s[2], s[3]}
				*row1 = [4]int32{s[4], s[5], s[6], s[7]}
			}
		}
	}
}

// pairs2x4 is block2x4 with dot2 for the products (k ≥ 1).
func pairs2x4(k, mr, nr int, a, b unsafe.Pointer) [8]int32 {
	var c00, c01, c02, c03, c10, c11, c12, c13 int32
	da, db := uintptr(mr)*4, uintptr(nr)*4
	for {
		bp, ap := (*[4]int32)(b), (*[2]int32)(a)
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		a0, a1 := ap[0], ap[1]
		c00 += dot2(a0, b0)
		c01 += dot2(a0, b1)
		c02 += dot2(a0, b2)
		c03 += dot2(a0, b3)
		c10 += dot2(a1, b0)
		c11 += dot2(a1, b1)
		c12 += dot2(a1, b2)
		c13 += dot2(a1, b3)
		if k--; k == 0 {
			return [8]int32{c00, c01, c02, c03, c10, c11, c12, c13}
		}
		a, b = unsafe.Add(a, da), unsafe.Add(b, db)
	}
}
