//go:build amd64 && !purego

package main

// assemblyKernels says whether this build has the assembly kernels.
const assemblyKernels = true
