//go:build purego || !amd64

package kernels

// probeProcessor knows no model outside amd64's CPUID: every table keyed
// on a Processor gives its default.
func probeProcessor() Processor { return Processor{} }
