package npy

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrArray is wrapped by the errors Write returns for an Array whose parts
// disagree (a negative dimension, or data of the wrong length).
var ErrArray = errors.New("inconsistent npy array")

// WriteHeader writes the .npy preamble for h: format version 1.0 when the
// header fits in 65535 bytes, else 2.0, with the dict padded by spaces and
// ended by '\n' so that the data that follows starts on a 64-byte boundary.
// Byte order is '<', or '|' for one-byte types. Callers that stream data
// themselves write it, little-endian, right after.
func WriteHeader(w io.Writer, h Header) error {
	if _, err := h.DataLen(); err != nil {
		return fmt.Errorf("npy: %w: %w", ErrArray, err)
	}
	pre, err := encodeHeader(h)
	if err != nil {
		return err
	}
	_, err = w.Write(pre)
	return err
}

// Write writes a as an .npy stream. a.Data must hold exactly the bytes its
// header describes. A BFloat16 array is refused with an error wrapping
// dtype.ErrDType, since NumPy has no such type: cast to float32 first.
func Write(w io.Writer, a *Array) error {
	if a == nil {
		return fmt.Errorf("npy: %w: nil array", ErrArray)
	}
	n, err := a.DataLen()
	if err != nil {
		if a.DType.Valid() {
			return fmt.Errorf("npy: %w: %w", ErrArray, err)
		}
		return err
	}
	if len(a.Data) != n {
		return fmt.Errorf("npy: %w: shape %v of %v needs %d data bytes, have %d",
			ErrArray, a.Shape, a.DType, n, len(a.Data))
	}
	if err := WriteHeader(w, a.Header); err != nil {
		return err
	}
	_, err = w.Write(a.Data)
	return err
}

// WriteFile writes a to the file at path, creating or truncating it.
func WriteFile(path string, a *Array) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, a); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
