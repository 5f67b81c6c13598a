//go:build purego || !amd64

package vec

func streamSets() map[string]streamKernels { return map[string]streamKernels{} }
