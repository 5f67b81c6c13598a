//go:build purego || !amd64

package main

// assemblyKernels says whether this build has the assembly kernels: not
// with -tags purego, nor on architectures without them, where only the Go
// twins run.
const assemblyKernels = false
