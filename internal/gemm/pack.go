package gemm

import "unsafe"

// Packing copies a block of a strided operand into the contiguous sliver
// layout the micro-kernels stream through. Reading any strides here is what
// lets transposed, sliced, reversed and broadcast views be multiplied with no
// extra copy; padding the last sliver with zeros is what lets the kernels
// compute full tiles only.

// packA copies rows [i0, i0+mc) and columns [p0, p0+kc) of a into dst as
// ceil(mc/mr) slivers of mr rows each. Within a sliver the mr elements of
// one column are adjacent, so the kernel reads A one column at a time:
//
//	dst[s*kc*mr + p*mr + r] = a(i0+s*mr+r, p0+p)   (0 past row i0+mc)
func packA[T any](dst []T, a Matrix[T], i0, mc, p0, kc, mr int) {
	for s := 0; s*mr < mc; s++ {
		rows := min(mr, mc-s*mr)
		d := dst[s*kc*mr : (s+1)*kc*mr]
		base := a.Off + (i0+s*mr)*a.RS + p0*a.CS
		if a.RS == 1 {
			// Column-major (a transposed view): each column of the sliver is
			// a contiguous run, so it is a plain copy.
			if rows == mr && packColumnsFast(d, a.Data, base, a.CS, kc, mr) {
				continue
			}
			for p := 0; p < kc; p++ {
				at := base + p*a.CS
				col := d[p*mr : p*mr+mr]
				copy(col, a.Data[at:at+rows])
				clear(col[rows:])
			}
			continue
		}
		for r := 0; r < rows; r++ {
			at := base + r*a.RS
			if a.CS == 1 {
				for p, v := range a.Data[at : at+kc] {
					d[p*mr+r] = v
				}
				continue
			}
			for p := 0; p < kc; p++ {
				d[p*mr+r] = a.Data[at]
				at += a.CS
			}
		}
		if rows < mr {
			for p := 0; p < kc; p++ {
				clear(d[p*mr+rows : p*mr+mr])
			}
		}
	}
}

// packB copies rows [p0, p0+kc) and columns [j0, j0+nc) of b into dst as
// ceil(nc/nr) slivers of nr columns each. Within a sliver the nr elements of
// one row are adjacent, so the kernel loads a row of B as whole vectors:
//
//	dst[s*kc*nr + p*nr + j] = b(p0+p, j0+s*nr+j)   (0 past column j0+nc)
func packB[T any](dst []T, b Matrix[T], p0, kc, j0, nc, nr int) {
	s0 := 0
	if b.CS == 1 && panelPacking {
		// Row-major: the whole slivers row by row (packPanelFast), the
		// partial one below.
		s0 = packPanelFast(dst, b.Data, b.Off+p0*b.RS+j0, b.RS, kc, nc/nr, nr)
	}
	for s := s0; s*nr < nc; s++ {
		cols := min(nr, nc-s*nr)
		d := dst[s*kc*nr : (s+1)*kc*nr]
		base := b.Off + p0*b.RS + (j0+s*nr)*b.CS
		if b.CS == 1 {
			// Row-major: each row of the sliver is a contiguous run.
			if cols == nr {
				if packRowsFast(d, b.Data, base, b.RS, kc, nr) {
					continue
				}
				for p := 0; p < kc; p++ {
					at := base + p*b.RS
					copy(d[p*nr:p*nr+nr], b.Data[at:at+nr])
				}
				continue
			}
			for p := 0; p < kc; p++ {
				at := base + p*b.RS
				row := d[p*nr : p*nr+nr]
				copy(row, b.Data[at:at+cols])
				clear(row[cols:])
			}
			continue
		}
		if b.RS == 1 {
			// Column-major (a transposed view, as in A·Bᵀ): a transpose.
			packTransposed(d, b.Data, base, b.CS, kc, cols, nr)
		} else {
			for j := 0; j < cols; j++ {
				at := base + j*b.CS
				for p := 0; p < kc; p++ {
					d[p*nr+j] = b.Data[at]
					at += b.RS
				}
			}
		}
		if cols < nr {
			for p := 0; p < kc; p++ {
				clear(d[p*nr+cols : p*nr+nr])
			}
		}
	}
}

// packRowsFast copies kc rows of nr elements, the first at src[base] and
// the next stride elements apart, to consecutive rows of dst with
// copyRows128 or copyRows64 when a row is 128 or 64 bytes (a vector row of
// B for every AVX-512 and every AVX2 kernel), and reports whether it did.
// copy would call memmove once a row, whose set-up costs as much as moving
// 128 bytes: a third of the packing of a 64³ float64 product.
func packRowsFast[T any](dst, src []T, base, stride, kc, nr int) bool {
	size := int(unsafe.Sizeof(*new(T)))
	rows := active.copyRows128
	switch nr * size {
	case 128:
	case 64:
		rows = active.copyRows64
	default:
		return false
	}
	if kc <= 0 || len(dst) < kc*nr {
		return false
	}
	first, last := base, base+(kc-1)*stride
	if min(first, last) < 0 || max(first, last)+nr > len(src) {
		return false // out of range: the plain copy panics as it should
	}
	rows(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(&src[base]), kc, stride*size)
	return true
}

// panelPacking packs the whole slivers of a row-major B row by row
// (packPanelFast) instead of one sliver at a time down the rows: each row of
// the panel is then read straight through, where a sliver's walk touches a
// new page at every row (4 KiB apart at 1024 float32 columns) and leaves
// the hardware prefetcher nothing to follow. Products of 1024³ float32 on
// one goroutine took 1-2% less CPU (AVX-512 and AVX2 kernels; Sapphire
// Rapids under KVM, BenchmarkPackPanel for the packing alone). A variable
// so that the benchmark can switch it off.
var panelPacking = true

// packPanelFast packs the first slivers whole slivers of nr columns of the
// kc rows of a row-major B whose first element is src[base] (rows stride
// elements apart) with the kernel set's copyPanel128 or copyPanel64, row by
// row, and returns how many slivers it packed: slivers, or 0 when the rows
// are neither 128 nor 64 bytes, the set has no such copier, or the panel
// is not inside src.
func packPanelFast[T any](dst, src []T, base, stride, kc, slivers, nr int) int {
	size := int(unsafe.Sizeof(*new(T)))
	panel := active.copyPanel128
	switch nr * size {
	case 128:
	case 64:
		panel = active.copyPanel64
	default:
		return 0
	}
	if panel == nil || kc <= 0 || slivers <= 0 || len(dst) < slivers*kc*nr {
		return 0
	}
	first, last := base, base+(kc-1)*stride
	if min(first, last) < 0 || max(first, last)+slivers*nr > len(src) {
		return 0 // out of range: the plain copy panics as it should
	}
	panel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(&src[base]), kc, slivers, stride*size, kc*nr*size)
	return slivers
}

// copyPanelGo is the Go twin of the kernel sets' copyPanel128 and
// copyPanel64 for pieces of type R ([128]byte or [64]byte): row r of the
// source, slivers pieces long, goes to row r of each of the slivers at
// dst, sliverStride bytes apart.
func copyPanelGo[R [128]byte | [64]byte](dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int) {
	w := int(unsafe.Sizeof(*new(R)))
	for r := 0; r < rows; r++ {
		for s := 0; s < slivers; s++ {
			*(*R)(unsafe.Add(dst, s*sliverStride+w*r)) = *(*R)(unsafe.Add(src, r*stride+w*s))
		}
	}
}

// copyRows128Go copies rows 128-byte rows, stride bytes apart at src, to
// consecutive rows at dst: the Go twin of the kernel sets' copyRows128.
func copyRows128Go(dst, src unsafe.Pointer, rows, stride int) {
	for r := 0; r < rows; r++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, 128*r)), 128), unsafe.Slice((*byte)(unsafe.Add(src, stride*r)), 128))
	}
}

// copyRows64Go is copyRows128Go for 64-byte rows.
func copyRows64Go(dst, src unsafe.Pointer, rows, stride int) {
	for r := 0; r < rows; r++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, 64*r)), 64), unsafe.Slice((*byte)(unsafe.Add(src, stride*r)), 64))
	}
}

// packColumnsFast copies kc runs of mr elements, the first at src[base]
// and the next stride elements apart, to consecutive runs of dst, as fixed
// size copies the compiler turns into a few vector moves, and reports
// whether it did: a sliver of a column-major A (Aᵀ·G in a backward pass)
// is 12 elements a column, and copy called memmove once for each, whose
// set-up cost as much as the move (packing a 1024² float32 Aᵀ took 0.45 ns
// an element, now 0.26, BenchmarkPackColumns).
func packColumnsFast[T any](dst, src []T, base, stride, kc, mr int) bool {
	size := int(unsafe.Sizeof(*new(T)))
	if kc <= 0 || len(dst) < kc*mr {
		return false
	}
	first, last := base, base+(kc-1)*stride
	if min(first, last) < 0 || max(first, last)+mr > len(src) {
		return false // out of range: the plain copy panics as it should
	}
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(&src[base])
	switch w, step := mr*size, stride*size; w {
	case 16:
		copyRowsFixed[[16]byte](d, s, kc, step)
	case 24:
		copyRows24(d, s, kc, step)
	case 32:
		copyRowsFixed[[32]byte](d, s, kc, step)
	case 48:
		copyRowsFixed[[48]byte](d, s, kc, step)
	case 64:
		copyRowsFixed[[64]byte](d, s, kc, step)
	case 96:
		copyRowsFixed[[96]byte](d, s, kc, step)
	default:
		return false
	}
	return true
}

// copyRowsFixed copies rows rows of the size of R, stride bytes apart at
// src, to consecutive rows at dst. The row goes through a local: assigned
// from pointer to pointer, which may overlap, it would be a memmove call.
func copyRowsFixed[R [16]byte | [32]byte | [48]byte | [64]byte | [96]byte](dst, src unsafe.Pointer, rows, stride int) {
	w := int(unsafe.Sizeof(*new(R)))
	for r := 0; r < rows; r++ {
		row := *(*R)(unsafe.Add(src, stride*r))
		*(*R)(unsafe.Add(dst, w*r)) = row
	}
}

// copyRows24 is copyRowsFixed for rows of 24 bytes (six float32, AVX2's
// sliver of A), moved as 16 bytes and 8: a [24]byte local is written as
// two overlapping 16-byte moves and read back the same way, a read that no
// single store covers, which waits for both stores to leave the core
// (BenchmarkPackColumns/mr6; bench/sweep.json's aT512 through tensor
// bench).
func copyRows24(dst, src unsafe.Pointer, rows, stride int) {
	for r := 0; r < rows; r++ {
		s, d := unsafe.Add(src, stride*r), unsafe.Add(dst, 24*r)
		lo, hi := *(*[16]byte)(s), *(*uint64)(unsafe.Add(s, 16))
		*(*[16]byte)(d), *(*uint64)(unsafe.Add(d, 16)) = lo, hi
	}
}

// transposeBlock is how many elements of a column packTransposed reads
// at once: one 32-byte run of float32, a cache line's half.
const transposeBlock = 8

// packTransposed fills rows p < kc, columns j < cols of the sliver d
// (rows of nr) with src[base+j*stride+p]: column j of a column-major B is
// the contiguous run at base+j*stride. It reads transposeBlock elements of
// a column and writes them down a column of d, so each source line is read
// once while the kc×nr destination stays in L1; element by element, one
// column at a time, it took 0.94 ns an element at 1024² float32, blocked
// 0.54 (BenchmarkPackTransposed).
func packTransposed[T any](d, src []T, base, stride, kc, cols, nr int) {
	p := 0
	for ; p+transposeBlock <= kc; p += transposeBlock {
		for j := 0; j < cols; j++ {
			in := (*[transposeBlock]T)(src[base+j*stride+p:])
			out := d[p*nr+j:]
			_ = out[(transposeBlock-1)*nr]
			out[0], out[nr], out[2*nr], out[3*nr] = in[0], in[1], in[2], in[3]
			out[4*nr], out[5*nr], out[6*nr], out[7*nr] = in[4], in[5], in[6], in[7]
		}
	}
	for ; p < kc; p++ {
		for j := 0; j < cols; j++ {
			d[p*nr+j] = src[base+j*stride+p]
		}
	}
}
