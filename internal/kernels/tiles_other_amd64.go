//go:build !purego && !linux

package kernels

// tileDataPermitted is false outside Linux: the library does not know how
// other systems grant the tile data state, so it runs the avx512 set there.
func tileDataPermitted() bool { return false }
