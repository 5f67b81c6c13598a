package gemm

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// rowCopier is a copyRows function for rows of width bytes.
type rowCopier struct {
	name  string
	width int
	copy  func(dst, src unsafe.Pointer, rows, stride int)
}

// TestCopyRows checks copyRows128 and copyRows64 of every kernel set this
// machine runs (the Go twins among them) against a byte loop, for row counts around the loop's edges and positive and
// negative strides, with guard bytes around the destination.
func TestCopyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	const guard = 64
	var impls []rowCopier
	for _, v := range kernelSets.Variants() {
		impls = append(impls, rowCopier{v.Name() + "128", 128, v.K.copyRows128}, rowCopier{v.Name() + "64", 64, v.K.copyRows64})
	}
	for _, f := range impls {
		w := f.width
		for _, rows := range []int{1, 2, 3, 7, 16, 33} {
			for _, stride := range []int{w, w + 8, 200, 1024, -w, -520} {
				span := (rows-1)*abs(stride) + w
				src := make([]byte, span+2*guard)
				for i := range src {
					src[i] = byte(rng.Uint32())
				}
				start := guard
				if stride < 0 {
					start = guard + (rows-1)*(-stride)
				}
				want := make([]byte, rows*w)
				for r := range rows {
					copy(want[r*w:(r+1)*w], src[start+r*stride:])
				}
				dst := make([]byte, rows*w+2*guard)
				for i := range dst {
					dst[i] = 0xA5
				}
				f.copy(unsafe.Pointer(&dst[guard]), unsafe.Pointer(&src[start]), rows, stride)
				if !bytes.Equal(dst[guard:guard+rows*w], want) {
					t.Errorf("%s: rows %d stride %d: copied rows differ", f.name, rows, stride)
				}
				for i, b := range append(dst[:guard:guard], dst[guard+rows*w:]...) {
					if b != 0xA5 {
						t.Fatalf("%s: rows %d stride %d: guard byte %d overwritten", f.name, rows, stride, i)
					}
				}
			}
		}
	}
}

// TestWideRows checks every kernel set's wideRows functions against their
// Go twin on random bits (NaN patterns included, whose sign
// the negation flips), for row counts around the loop's edges, both
// parities of the first row, and positive and negative strides, with
// guard bytes around the destination.
func TestWideRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 43))
	const guard = 64
	type wide struct {
		name  string
		width int
		f     func(dst, src unsafe.Pointer, rows, stride, odd int)
		twin  func(dst, src unsafe.Pointer, rows, stride, odd int)
	}
	var impls []wide
	for _, v := range kernelSets.Variants() {
		impls = append(impls,
			wide{v.Name() + "/128/f32", 128, v.K.wideRows128F32, wideRowsGo[float32, [128]byte]},
			wide{v.Name() + "/128/f64", 128, v.K.wideRows128F64, wideRowsGo[float64, [128]byte]},
			wide{v.Name() + "/64/f32", 64, v.K.wideRows64F32, wideRowsGo[float32, [64]byte]},
			wide{v.Name() + "/64/f64", 64, v.K.wideRows64F64, wideRowsGo[float64, [64]byte]})
	}
	for _, w := range impls {
		for _, rows := range []int{0, 1, 2, 3, 4, 7, 16} {
			for _, stride := range []int{w.width, w.width + 8, 1024, -w.width, -520} {
				for odd := range 2 {
					srcRows := (odd + rows + 1) / 2
					span := max(srcRows-1, 0)*abs(stride) + w.width
					src := make([]byte, span+2*guard)
					for i := range src {
						src[i] = byte(rng.Uint32())
					}
					start := guard
					if stride < 0 {
						start = guard + max(srcRows-1, 0)*(-stride)
					}
					got := make([]byte, rows*w.width+2*guard)
					for i := range got {
						got[i] = 0xA5
					}
					want := append([]byte(nil), got...)
					w.f(unsafe.Pointer(&got[guard]), unsafe.Pointer(&src[start]), rows, stride, odd)
					w.twin(unsafe.Pointer(&want[guard]), unsafe.Pointer(&src[start]), rows, stride, odd)
					if !bytes.Equal(got, want) {
						t.Errorf("%s: rows %d stride %d odd %d: differs from the twin (guards included)", w.name, rows, stride, odd)
					}
				}
			}
		}
	}
}

// TestCopyPanel checks copyPanel128 and copyPanel64 of every kernel set
// this machine runs (the Go twins among them) against a byte loop, for row
// and sliver counts around the loops' edges, positive and negative source
// strides and slivers spaced more than their length apart, with guard
// bytes around the destination and between its slivers.
func TestCopyPanel(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 45))
	const guard = 64
	type panelCopier struct {
		name  string
		width int
		copy  func(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)
	}
	var impls []panelCopier
	for _, v := range kernelSets.Variants() {
		impls = append(impls, panelCopier{v.Name() + "128", 128, v.K.copyPanel128}, panelCopier{v.Name() + "64", 64, v.K.copyPanel64})
	}
	for _, f := range impls {
		w := f.width
		for _, rows := range []int{0, 1, 2, 3, 7, 16} {
			for _, slivers := range []int{0, 1, 2, 3, 5} {
				for _, stride := range []int{slivers * w, slivers*w + 8, 2048, -slivers * w, -4100} {
					if rows > 1 && abs(stride) < slivers*w {
						continue // source rows would overlap
					}
					sliverStride := rows*w + 3*w/2 // a guard gap after each sliver
					span := max(rows-1, 0)*abs(stride) + slivers*w
					src := make([]byte, span+2*guard)
					for i := range src {
						src[i] = byte(rng.Uint32())
					}
					start := guard
					if stride < 0 {
						start = guard + max(rows-1, 0)*(-stride)
					}
					size := slivers*sliverStride + 2*guard
					want := make([]byte, size)
					for i := range want {
						want[i] = 0xA5
					}
					got := append([]byte(nil), want...)
					for r := range rows {
						for s := range slivers {
							copy(want[guard+s*sliverStride+r*w:][:w], src[start+r*stride+s*w:])
						}
					}
					f.copy(unsafe.Pointer(&got[guard]), unsafe.Pointer(&src[start]), rows, slivers, stride, sliverStride)
					if !bytes.Equal(got, want) {
						t.Errorf("%s: rows %d slivers %d stride %d: the copied panel or its guards differ", f.name, rows, slivers, stride)
					}
				}
			}
		}
	}
}
