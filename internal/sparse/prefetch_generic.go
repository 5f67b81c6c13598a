package sparse

import "unsafe"

// prefetchRows asks the cache for the start of the rows of a CSR matrix
// listed in ks: for every k, the lines at cols[rowPtr[k]] and the one
// after, and the same at vals + rowPtr[k]·valSize. It changes nothing in
// memory, so its Go twin, prefetchRowsGo, does nothing; on amd64 it is an
// assembly loop of PREFETCHT0 (prefetch_amd64.s). SpGEMM visits the rows of
// b in random order and b rarely fits in the L2 cache: without the hint
// each row's first access stalls the core for a full cache miss.
//
// Precondition: every k in ks lies in [0, len(rowPtr)); vals points at an
// array of valSize-byte elements (the hint may reach past the arrays'
// ends, which prefetching tolerates).
var prefetchRows = prefetchRowsGo

// prefetchRowsGo is prefetchRows's twin: a hint that may be ignored, so it
// computes nothing.
func prefetchRowsGo(rowPtr, cols []int64, vals unsafe.Pointer, valSize uintptr, ks []int64) {}
