package tensor

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor/internal/sparse"
	"github.com/tensor-go/tensor/npy"
	"github.com/tensor-go/tensor/shape"
)

// SciPy's sparse .npz format, as scipy.sparse.save_npz writes and
// load_npz reads it: a zip of .npy members named
//
//	format   a 0-d byte string, b'csr', b'csc' or b'coo' (dtype |S3)
//	shape    the two dimensions, an integer array
//	data     the values, 1-D
//	indptr, indices          for csr and csc
//	row, col                 for coo
//
// Package npy refuses string dtypes, so the format member is parsed here:
// it is a fixed, tiny array. Other members go through package npy. Members
// this library does not use (SciPy 1.11's _is_array) are skipped.

// maxFormatHeader bounds the header of the format member, which holds a
// few dozen characters; anything larger is not SciPy's.
const maxFormatHeader = 4096

// ReadSparseNPZ decodes a sparse matrix in SciPy's .npz format from the
// size bytes of r: csr and coo matrices load in their layout, csc ones as
// CSR (as COO when their rows far outnumber their entries: see
// Tensor.Transpose). Index arrays may have any integer dtype. Malformed archives and
// index data that does not describe a valid matrix are ErrFormat errors;
// a bfloat16-free NumPy dtype is required for data, as in ReadNPZ.
func ReadSparseNPZ(r io.ReaderAt, size int64) (*Tensor, error) {
	return readSparseNPZ("read_sparse_npz", r, size)
}

// LoadSparseNPZ reads the SciPy sparse .npz file at path; see
// ReadSparseNPZ.
func LoadSparseNPZ(path string) (*Tensor, error) {
	const op = "load_sparse_npz"
	f, err := os.Open(path)
	if err != nil {
		return nil, npyErr(op, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, npyErr(op, err)
	}
	return readSparseNPZ(op, f, info.Size())
}

// readSparseNPZ reads the members and assembles the matrix. The archive's
// directory is checked first (npy.OpenNPZ: no member declares more than its
// compressed bytes can inflate to, none shares another's data), and each
// array is inflated straight into its tensor's storage, so memory follows
// what the archive really holds.
func readSparseNPZ(op string, r io.ReaderAt, size int64) (*Tensor, error) {
	zr, err := npy.OpenNPZ(r, size)
	if err != nil {
		return nil, npyErr(op, err)
	}
	var format string
	arrays := map[string]*Tensor{}
	for _, f := range zr.File {
		name, ok := strings.CutSuffix(f.Name, ".npy")
		if !ok {
			return nil, opErr(op, ErrFormat, "member %s is not an .npy file", quoteInput(f.Name))
		}
		if _, dup := arrays[name]; dup || name == "format" && format != "" {
			return nil, opErr(op, ErrFormat, "member %s appears twice", quoteInput(f.Name))
		}
		switch name {
		case "format":
			if format, err = readFormatMember(op, f); err != nil {
				return nil, err
			}
		case "shape", "data", "indptr", "indices", "row", "col":
			into := &storageAlloc{op: op}
			a, err := npy.ReadMember(f, into.alloc)
			if err != nil {
				into.release()
				return nil, npyErr(op, fmt.Errorf("member %s: %w", quoteInput(f.Name), err))
			}
			t, err := into.tensor(op, 0, a)
			if err != nil {
				return nil, err
			}
			arrays[name] = t
		}
	}
	return assembleSparse(op, format, arrays)
}

// readFormatMember opens the format member, decodes it and checks that
// nothing follows (reading to the end also makes archive/zip verify the
// checksum).
func readFormatMember(op string, f *zip.File) (string, error) {
	rc, err := npy.OpenMember(f)
	if err != nil {
		return "", npzFormatErr(op, err, "member "+quoteInput(f.Name))
	}
	defer rc.Close()
	v, err := readFormatArray(op, rc)
	if err != nil {
		return "", err
	}
	var one [1]byte
	if n, err := rc.Read(one[:]); n > 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return "", opErr(op, ErrFormat, "member %s has bytes after its array", quoteInput(f.Name))
		}
		return "", npzFormatErr(op, err, "member "+quoteInput(f.Name))
	}
	return v, nil
}

// quoteInput quotes a name or text taken from the input, cut to a short
// prefix so that an error message never repeats a huge input.
func quoteInput(s string) string {
	const max = 48
	if len(s) <= max {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:max]), len(s))
}

// npzFormatErr reports a malformed archive, keeping err as the cause.
func npzFormatErr(op string, err error, what string) error {
	return &OpError{Op: op, Detail: what + ": " + err.Error(), Class: ErrFormat, cause: err}
}

var (
	descrField = regexp.MustCompile(`'descr'\s*:\s*'([^']*)'`)
	shapeField = regexp.MustCompile(`'shape'\s*:\s*\(\s*\)`)
)

// readFormatArray reads the 0-d string array of the format member: NumPy
// bytes (|Sn) as save_npz writes it, or unicode (<Un), which other writers
// may use.
func readFormatArray(op string, r io.Reader) (string, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil || string(pre[:6]) != "\x93NUMPY" {
		return "", opErr(op, ErrFormat, "format member is not an .npy array")
	}
	var hlen int
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return "", opErr(op, ErrFormat, "format member: truncated header")
		}
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return "", opErr(op, ErrFormat, "format member: truncated header")
		}
		hlen = int(min(binary.LittleEndian.Uint32(l[:]), maxFormatHeader+1))
	default:
		return "", opErr(op, ErrFormat, "format member: unknown .npy version %d", pre[6])
	}
	if hlen > maxFormatHeader {
		return "", opErr(op, ErrFormat, "format member: header of more than %d bytes", maxFormatHeader)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return "", opErr(op, ErrFormat, "format member: truncated header")
	}
	d := descrField.FindSubmatch(header)
	if d == nil || !shapeField.Match(header) {
		return "", opErr(op, ErrFormat, "format member: header %s is not a 0-d string array", quoteInput(string(header)))
	}
	descr := string(d[1])
	width, unicode := 0, false
	switch {
	case strings.HasPrefix(descr, "|S"), strings.HasPrefix(descr, "S"):
		width, _ = strconv.Atoi(strings.TrimLeft(descr, "|S"))
	case strings.HasPrefix(descr, "<U"):
		width, _ = strconv.Atoi(descr[2:])
		unicode = true
	}
	if width < 1 || width > 16 {
		return "", opErr(op, ErrFormat, "format member: dtype %s is not a short string", quoteInput(descr))
	}
	size := width
	if unicode {
		size *= 4
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return "", opErr(op, ErrFormat, "format member: truncated data")
	}
	if unicode {
		text := make([]byte, 0, width)
		for i := 0; i < size; i += 4 {
			c := binary.LittleEndian.Uint32(data[i:])
			if c > 0x7f {
				return "", opErr(op, ErrFormat, "format member: non-ASCII format name")
			}
			text = append(text, byte(c))
		}
		data = text
	}
	return string(bytes.TrimRight(data, "\x00")), nil
}

// assembleSparse builds the matrix from the members, re-classing invalid
// index data as a malformed file.
func assembleSparse(op, format string, arrays map[string]*Tensor) (*Tensor, error) {
	var need []string
	switch format {
	case "csr", "csc":
		need = []string{"shape", "data", "indptr", "indices"}
	case "coo":
		need = []string{"shape", "data", "row", "col"}
	case "":
		return nil, opErr(op, ErrFormat, "no format member: not a SciPy sparse matrix")
	default:
		return nil, opErr(op, ErrFormat, "unsupported sparse format %q (want csr, csc or coo)", format)
	}
	idx := map[string][]int64{}
	for _, name := range need {
		a, ok := arrays[name]
		if !ok {
			return nil, opErr(op, ErrFormat, "%s matrix without a %s member", format, name)
		}
		if name == "data" {
			continue
		}
		if !a.dtype.IsInteger() || len(a.shape) != 1 {
			return nil, opErr(op, ErrFormat, "%s member must be a 1-D integer array, not %v of shape %v", name, a.dtype, a.shape)
		}
		if a.dtype == Int64 {
			idx[name] = contiguousData[int64](a) // the reader's own storage: no copy
			continue
		}
		v, err := a.AsType(Int64)
		if err != nil {
			return nil, wrapErr(op, err)
		}
		idx[name] = contiguousData[int64](v)
	}
	shp := idx["shape"]
	if len(shp) != 2 {
		return nil, opErr(op, ErrFormat, "shape member %v is not two dimensions", shp)
	}
	if int64(int(shp[0])) != shp[0] || int64(int(shp[1])) != shp[1] {
		return nil, opErr(op, ErrFormat, "shape %v does not fit this platform's int", shp)
	}
	m, n := int(shp[0]), int(shp[1])
	var t *Tensor
	var err error
	switch format {
	case "csr":
		t, err = ownedSparse(op, SparseCSR, m, n, idx["indptr"], idx["indices"], arrays["data"])
	case "csc":
		// A CSC matrix is the CSR form of its transpose.
		t, err = ownedSparse(op, SparseCSR, n, m, idx["indptr"], idx["indices"], arrays["data"])
	default:
		t, err = ownedSparse(op, SparseCOO, m, n, idx["row"], idx["col"], arrays["data"])
	}
	if err != nil {
		var oe *OpError
		detail := err.Error()
		if errors.As(err, &oe) {
			detail = oe.Detail
		}
		return nil, &OpError{Op: op, Detail: "invalid " + format + " data: " + detail, Class: ErrFormat, cause: err}
	}
	if format == "csc" {
		return transposeOwned(op, t) // valid data; only memory can refuse it
	}
	return t, nil
}

// ownedSparse is NewSparseCSR or NewSparseCOO for parts the reader has
// just made and nothing else holds: they are checked the same way but not
// copied, so that loading a matrix costs its size once.
func ownedSparse(op string, l Layout, m, n int, index0, cols []int64, values *Tensor) (*Tensor, error) {
	if _, _, err := sparseShape(op, l, []int{m, n}); err != nil {
		return nil, err
	}
	if len(values.shape) != 1 {
		return nil, opErr(op, ErrShape, "values must be 1-D, not shape %s", shape.String(values.shape))
	}
	check := checkCOO
	if l == SparseCSR {
		check = checkCSR
	}
	canonical, err := check(op, m, n, index0, cols, values.Size())
	if err != nil {
		return nil, err
	}
	return newSparse(l, m, n, index0, cols, values, canonical), nil
}

// transposeOwned is Transpose for a CSR tensor whose parts the reader owns
// and nothing else will see: the CSR form of a CSC file's matrix. Where
// Transpose regroups into new arrays plus a permutation and then gathers
// the values (the input, the output and the permutation all live at once:
// 2.8 times the output for a 512 MB matrix), this reuses the column
// indices as the permutation and moves the values in place, so that the
// peak is the input plus the new row indices.
func transposeOwned(op string, t *Tensor) (*Tensor, error) {
	d := t.sparse
	m, n := t.shape[0], t.shape[1]
	if n > proportionate(len(d.cols)) {
		// As COO, with no pointers for the n columns: a row index per entry.
		if err := sparse.CheckSize[int8](0, len(d.cols), false, sparseLimit()); err != nil {
			return nil, sparseSizeErr(op, SparseCOO, []int{n, m}, err)
		}
		return t.sparseTranspose(), nil
	}
	// Two sets of column pointers, a row index per entry and a bit.
	if err := sparse.CheckSize[int8](2*n+1, len(d.cols), true, sparseLimit()); err != nil {
		return nil, sparseSizeErr(op, SparseCSR, []int{n, m}, err)
	}
	crow, cols := d.index0, d.cols
	ccol := make([]int64, n+1)
	for _, c := range cols {
		ccol[c+1]++
	}
	for j := range n {
		ccol[j+1] += ccol[j]
	}
	next := slices.Clone(ccol[:n])
	rows := make([]int64, len(cols))
	for i := range m {
		for p := crow[i]; p < crow[i+1]; p++ {
			q := next[cols[p]]
			next[cols[p]]++
			rows[q] = int64(i)
			cols[p] = q // entry p's place in the result, from now on
		}
	}
	permuteValues(d.values, cols)
	// Entries of a canonical matrix land in increasing row order within
	// each column, distinct, so the transpose is canonical too.
	return newSparse(SparseCSR, n, m, ccol, rows, d.values, d.canonical), nil
}

// permuteValues moves element p of the contiguous 1-D tensor v to position
// dest[p], in place, following the permutation's cycles (a bit per element
// marks those already placed). Elements are moved as bits, by size.
func permuteValues(v *Tensor, dest []int64) {
	switch v.dtype.Size() {
	case 1:
		permuteInPlace(contiguousData[uint8](v), dest)
	case 2:
		permuteInPlace(contiguousData[uint16](v), dest)
	case 4:
		permuteInPlace(contiguousData[uint32](v), dest)
	case 8:
		permuteInPlace(contiguousData[uint64](v), dest)
	case 16:
		permuteInPlace(contiguousData[[2]uint64](v), dest)
	default:
		panic("tensor: internal error: no element size " + strconv.Itoa(v.dtype.Size()))
	}
}

func permuteInPlace[E any](s []E, dest []int64) {
	placed := make([]uint64, (len(s)+63)/64)
	for start := range s {
		if placed[start/64]&(1<<(start%64)) != 0 {
			continue
		}
		carry, p := s[start], start
		for {
			q := int(dest[p])
			carry, s[q] = s[q], carry
			placed[q/64] |= 1 << (q % 64)
			if q == start {
				break
			}
			p = q
		}
	}
}

// WriteSparseNPZ writes a sparse tensor to w in SciPy's .npz format, csr
// for SparseCSR and coo for SparseCOO, readable by scipy.sparse.load_npz;
// compress deflates the members as save_npz does by default. Index arrays
// are int32 when every index fits, as SciPy stores them, and int64
// otherwise. A strided tensor is an ErrLayout error, a bfloat16 one an
// ErrDType error (NumPy has no bfloat16).
func WriteSparseNPZ(w io.Writer, t *Tensor, compress bool) error {
	return writeSparseNPZ("write_sparse_npz", w, t, compress)
}

// SaveSparseNPZ writes a sparse tensor to the file at path in SciPy's
// compressed .npz format; see WriteSparseNPZ.
func SaveSparseNPZ(path string, t *Tensor) error {
	const op = "save_sparse_npz"
	if t == nil {
		return opErr(op, ErrValue, "nil tensor")
	}
	if err := requireSparse(op, t); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := writeSparseNPZ(op, &buf, t, true); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return npyErr(op, err)
	}
	return nil
}

// writeSparseNPZ writes the members in save_npz's order.
func writeSparseNPZ(op string, w io.Writer, t *Tensor, compress bool) error {
	if t == nil {
		return opErr(op, ErrValue, "nil tensor")
	}
	if err := requireSparse(op, t); err != nil {
		return err
	}
	d := t.sparse
	m, n := t.shape[0], t.shape[1]
	names, format := []string{"indices", "indptr"}, "csr"
	index := [][]int64{d.cols, d.index0}
	if t.layout == SparseCOO {
		names, format = []string{"row", "col"}, "coo"
		index = [][]int64{d.index0, d.cols}
	}
	wide := max(m, n, len(d.cols)) > 1<<31-1
	var members []npy.Entry
	for i, name := range names {
		a, err := indexArray(op, index[i], wide)
		if err != nil {
			return err
		}
		members = append(members, npy.Entry{Name: name, Array: a})
	}
	shp, err := toArray(op, Must(FromSlice([]int64{int64(m), int64(n)})))
	if err != nil {
		return err
	}
	data, err := toArray(op, d.values)
	if err != nil {
		return err
	}
	method := zip.Store
	if compress {
		method = zip.Deflate
	}
	zw := zip.NewWriter(w)
	put := func(name string, write func(io.Writer) error) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: method})
		if err != nil {
			return err
		}
		return write(fw)
	}
	for _, e := range members {
		if err := put(e.Name, func(w io.Writer) error { return npy.Write(w, e.Array) }); err != nil {
			return npyErr(op, err)
		}
	}
	if err := put("format", func(w io.Writer) error { return writeFormatArray(w, format) }); err != nil {
		return npyErr(op, err)
	}
	for _, e := range []npy.Entry{{Name: "shape", Array: shp}, {Name: "data", Array: data}} {
		if err := put(e.Name, func(w io.Writer) error { return npy.Write(w, e.Array) }); err != nil {
			return npyErr(op, err)
		}
	}
	return npyErr(op, zw.Close())
}

// indexArray returns index data as an int32 array, or int64 when wide.
func indexArray(op string, idx []int64, wide bool) (*npy.Array, error) {
	t := Must(FromSlice(idx))
	if !wide {
		var err error
		if t, err = t.AsType(Int32); err != nil {
			return nil, wrapErr(op, err)
		}
	}
	return toArray(op, t)
}

// writeFormatArray writes a 0-d |Sn .npy array holding name, as NumPy
// saves the bytes object b'csr': a version 1.0 header padded with spaces to
// a multiple of 64 bytes and ended by a newline.
func writeFormatArray(w io.Writer, name string) error {
	dict := fmt.Sprintf("{'descr': '|S%d', 'fortran_order': False, 'shape': (), }", len(name))
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	header := dict + strings.Repeat(" ", pad) + "\n"
	var pre [10]byte
	copy(pre[:], "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(pre[8:], uint16(len(header)))
	_, err := io.WriteString(w, string(pre[:])+header+name)
	return err
}
