//go:build !purego

package kernels

// probeProcessor reads the vendor string (leaf 0) and the family and
// model (leaf 1): the extended family is added to a base family of 15,
// the extended model prefixed to the model of families 6 and 15 and up.
func probeProcessor() Processor {
	maxLeaf, b, c, d := cpuid(0, 0)
	p := Processor{Vendor: string(le32(b)) + string(le32(d)) + string(le32(c))}
	if maxLeaf < 1 {
		return p
	}
	eax, _, _, _ := cpuid(1, 0)
	family, model := int(eax>>8&0xf), int(eax>>4&0xf)
	if family == 15 {
		family += int(eax >> 20 & 0xff)
	}
	if family == 6 || family >= 15 {
		model += int(eax>>16&0xf) << 4
	}
	p.Family, p.Model = family, model
	return p
}

// le32 is v's four bytes, least significant first, as CPUID spells its
// strings.
func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
