package main

import (
	"archive/zip"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/cmd/tensor/internal/expr"
)

// .npz files on the command line are of two kinds: SciPy's sparse matrices
// (scipy.sparse.save_npz, recognised by their "format" member) and plain
// archives of arrays (numpy.savez), whose members an expression selects as
// NAME['member'] or NAME.member.

// isNPZ reports whether path names an .npz file.
func isNPZ(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".npz") }

// isSparseNPZ reports whether the archive at path holds a SciPy sparse
// matrix. An archive that cannot be opened is reported as plain, so that
// the plain reader gives its error.
func isSparseNPZ(path string) bool {
	z, err := zip.OpenReader(path)
	if err != nil {
		return false
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name == "format.npy" || f.Name == "format" {
			return true
		}
	}
	return false
}

// bindFile loads the file of a NAME=FILE binding into env: a tensor for
// .npy and SciPy sparse .npz files, an archive for plain .npz files.
func bindFile(env *expr.Env, b binding) error {
	if isNPZ(b.file) && !isSparseNPZ(b.file) {
		members, err := tensor.LoadNPZ(b.file)
		if err != nil {
			return err
		}
		if env.Archives == nil {
			env.Archives = map[string]expr.Archive{}
		}
		env.Archives[b.name] = expr.Archive(members)
		return nil
	}
	t, err := loadBinding(b.file)
	if err != nil {
		return err
	}
	env.Vars[b.name] = t
	return nil
}

// saveDense writes a strided result: to .npz as an archive of one member,
// arr_0 (numpy.savez's name for its first positional array), and
// otherwise to .npy.
func saveDense(path string, t *tensor.Tensor) error {
	if isNPZ(path) {
		return tensor.SaveNPZ(path, []tensor.NamedTensor{{Name: "arr_0", Tensor: t}}, false)
	}
	return tensor.SaveNPY(path, t)
}
