//go:build race

package gemm

// The race detector slows the kernels' Go surroundings tenfold; quick()
// keeps the test sizes modest under it.
const raceEnabled = true
