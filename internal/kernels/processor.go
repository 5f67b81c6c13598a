package kernels

import (
	"slices"
	"sync"
)

// Processor names a processor model. Kernel packages key the properties
// measured to differ between models of one instruction set on it, in
// tables with the measurement's reason (how far ahead of a stream from
// memory a software prefetch pays, for one); no kernel tests it.
type Processor struct {
	// Vendor is CPUID's vendor string ("GenuineIntel", "AuthenticAMD"),
	// empty where the processor does not say (other architectures,
	// purego).
	Vendor string
	// Family and Model are the display family and model: the base
	// fields plus the extended ones, as the vendors' manuals combine
	// them (AMD Zen 5 is family 26, 0x1A).
	Family, Model int
}

// ProcessorID returns this processor's Processor (read once).
func ProcessorID() Processor { return probedProcessor() }

var probedProcessor = sync.OnceValue(probeProcessor)

// Measured is a value measured on one processor family (a vendor and a
// display family), or on some models of it, to differ from the default
// that every other processor gets, such as a prefetch distance or whether
// a kernel wins; the table holding it says, beside each entry, what was
// measured.
type Measured[T any] struct {
	Vendor string
	Family int
	// Models are the display models the value was measured on; nil
	// stands for every model of the family. Intel has called every
	// processor since the Pentium Pro family 6, so an Intel entry names
	// its models.
	Models []int
	Value  T
}

// ForProcessor returns the value of the first entry of table that p's
// vendor, family and model match, else def.
func ForProcessor[T any](p Processor, table []Measured[T], def T) T {
	for _, e := range table {
		if e.Vendor == p.Vendor && e.Family == p.Family && (e.Models == nil || slices.Contains(e.Models, p.Model)) {
			return e.Value
		}
	}
	return def
}
