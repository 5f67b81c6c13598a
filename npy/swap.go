package npy

import (
	"encoding/binary"

	"github.com/tensor-go/tensor/dtype"
)

// swapBytes converts data of dtype d from big- to little-endian in place.
// Complex numbers swap each of their two parts. Each loop runs over the
// whole buffer so the compiler turns it into plain load-byteswap-store
// instructions with no call per element.
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

func swap16(b []byte) {
	for i := 0; i+2 <= len(b); i += 2 {
		binary.LittleEndian.PutUint16(b[i:], binary.BigEndian.Uint16(b[i:]))
	}
}

func swap32(b []byte) {
	for i := 0; i+4 <= len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], binary.BigEndian.Uint32(b[i:]))
	}
}

func swap64(b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], binary.BigEndian.Uint64(b[i:]))
	}
}
