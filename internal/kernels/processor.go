package kernels

import "sync"

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
