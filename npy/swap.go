package npy

import (
	"encoding/binary"
	"math/bits"

	"github.com/tensor-go/tensor/dtype"
)

// swapBytes converts data of dtype d from big- to little-endian in place.
// Complex numbers swap each of their two parts.
func swapBytes(data []byte, d dtype.DType) {
	unit := d.Size()
	if d.IsComplex() {
		unit /= 2
	}
	switch unit {
	case 2:
		swap16(data)
	case 4:
		swap32(data)
	case 8:
		swap64(data)
	}
}

// Each swap works on 64-bit words, 32 bytes per iteration so that bounds
// are checked once per block, and finishes the tail element by element.
// Elements never straddle a word: buffer lengths are multiples of the
// element size and words start at multiples of 8.

// swap16 reverses each 2-byte element; x86 has no byte reversal of 16-bit
// lanes in a general register, so it shifts and masks four at a time.
func swap16(b []byte) {
	le := binary.LittleEndian
	const lo = 0x00ff00ff00ff00ff
	for len(b) >= 32 {
		blk := b[:32:32]
		x0, x1, x2, x3 := le.Uint64(blk), le.Uint64(blk[8:]), le.Uint64(blk[16:]), le.Uint64(blk[24:])
		le.PutUint64(blk, x0>>8&lo|x0&lo<<8)
		le.PutUint64(blk[8:], x1>>8&lo|x1&lo<<8)
		le.PutUint64(blk[16:], x2>>8&lo|x2&lo<<8)
		le.PutUint64(blk[24:], x3>>8&lo|x3&lo<<8)
		b = b[32:]
	}
	for ; len(b) >= 2; b = b[2:] {
		b[0], b[1] = b[1], b[0]
	}
}

// swap32 reverses each 4-byte element, two per word: reversing all eight
// bytes also exchanges the two elements, which the rotation undoes.
func swap32(b []byte) {
	le := binary.LittleEndian
	for len(b) >= 32 {
		blk := b[:32:32]
		for k := 0; k < 32; k += 8 {
			le.PutUint64(blk[k:], bits.RotateLeft64(bits.ReverseBytes64(le.Uint64(blk[k:])), 32))
		}
		b = b[32:]
	}
	for ; len(b) >= 4; b = b[4:] {
		le.PutUint32(b, bits.ReverseBytes32(le.Uint32(b)))
	}
}

// swap64 reverses each 8-byte element.
func swap64(b []byte) {
	le := binary.LittleEndian
	for len(b) >= 32 {
		blk := b[:32:32]
		for k := 0; k < 32; k += 8 {
			le.PutUint64(blk[k:], bits.ReverseBytes64(le.Uint64(blk[k:])))
		}
		b = b[32:]
	}
	for ; len(b) >= 8; b = b[8:] {
		le.PutUint64(b, bits.ReverseBytes64(le.Uint64(b)))
	}
}
