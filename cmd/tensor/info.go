package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/npy"
	"github.com/tensor-go/tensor/shape"
)

// runInfo prints one line per .npy file describing its header, without
// reading the data: shape, dtype, order and the size of the data. A SciPy
// sparse .npz file gets its shape, dtype, layout and entry count, a plain
// .npz archive one line per member. A file that cannot be described gets
// its error on stderr and the next file is described all the same; the
// exit status is then 1.
func runInfo(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("info: missing FILE.npy; usage: tensor info FILE.npy ...")
	}
	failed := false
	for _, path := range args {
		line, err := describe(path)
		if err != nil {
			failed = true
			fmt.Fprintln(stderr, oneLine(err))
			continue
		}
		if _, err := fmt.Fprintln(stdout, line); err != nil {
			return err
		}
	}
	if failed {
		return errReported
	}
	return nil
}

// describe reads the header of the .npy file at path and checks that the
// file holds exactly the data the header announces.
func describe(path string) (string, error) {
	if isNPZ(path) && !isSparseNPZ(path) {
		return describeArchive(path)
	}
	if isNPZ(path) {
		return describeSparse(path)
	}
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

// describeSparse describes a SciPy sparse .npz file, which it loads whole
// since the entry count is only known from the arrays.
func describeSparse(path string) (string, error) {
	t, err := tensor.LoadSparseNPZ(path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: shape %s, dtype %v, layout %v, nnz %d", path, shape.String(t.Shape()), t.DType(), t.Layout(), t.Nnz()), nil
}

// describeArchive describes each member of a plain .npz archive on a line
// of its own, named as an expression selects it: a.npz['x'].
func describeArchive(path string) (string, error) {
	members, err := tensor.LoadNPZ(path)
	if err != nil {
		return "", err
	}
	if len(members) == 0 {
		return path + ": empty archive", nil
	}
	lines := make([]string, len(members))
	for i, m := range members {
		t := m.Tensor
		lines[i] = fmt.Sprintf("%s['%s']: shape %s, dtype %v, %d bytes", path, m.Name, shape.String(t.Shape()), t.DType(), t.Size()*t.DType().Size())
	}
	return strings.Join(lines, "\n"), nil
}
