package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tensor-go/tensor/npy"
	"github.com/tensor-go/tensor/shape"
)

// runInfo prints one line per .npy file describing its header, without
// reading the data: shape, dtype, order and the size of the data.
func runInfo(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usagef("info: missing FILE.npy; usage: tensor info FILE.npy ...")
	}
	for _, path := range args {
		line, err := describe(path)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintln(stdout, line); err != nil {
			return err
		}
	}
	return nil
}

// describe reads the header of the .npy file at path and checks that the
// file holds exactly the data the header announces.
func describe(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("tensor: info: %w", err)
	}
	defer f.Close()
	h, big, err := npy.ReadHeader(f)
	if err != nil {
		return "", fmt.Errorf("tensor: info: %s: %w", path, err)
	}
	n, err := h.DataLen()
	if err != nil {
		return "", fmt.Errorf("tensor: info: %s: %w", path, err)
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return "", fmt.Errorf("tensor: info: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("tensor: info: %w", err)
	}
	if have := st.Size() - pos; have != int64(n) {
		return "", fmt.Errorf("tensor: info: %s: %w: shape %s of %v needs %d data bytes, the file has %d",
			path, npy.ErrFormat, shape.String(h.Shape), h.DType, n, have)
	}
	order := "C"
	if h.Fortran {
		order = "F"
	}
	line := fmt.Sprintf("%s: shape %s, dtype %v, order %s, %d bytes", path, shape.String(h.Shape), h.DType, order, n)
	if big && h.DType.Size() > 1 {
		line += ", big-endian"
	}
	return line, nil
}
