//go:build !purego

package sparse

import "unsafe"

// prefetchRowsAsm is prefetchRows in assembly: for every k in ks it issues
// PREFETCHT0 for the cache line holding cols[rowPtr[k]] and the next, and
// for the line at vals + rowPtr[k]·valSize and the next. It loads
// rowPtr[k] and nothing else.
//
//go:noescape
func prefetchRowsAsm(rowPtr, cols []int64, vals unsafe.Pointer, valSize uintptr, ks []int64)

// PREFETCHT0 is baseline amd64 (SSE): no feature test needed.
func init() { prefetchRows = prefetchRowsAsm }
