package cast

import "github.com/tensor-go/tensor/dtype"

// buildTable fills table: first the direct kernels, then every other pair
// composed from them through a float32 or float64 intermediate.
func buildTable() {
	plainRow[int8](dtype.Int8)
	plainRow[int16](dtype.Int16)
	plainRow[int32](dtype.Int32)
	plainRow[int64](dtype.Int64)
	plainRow[uint8](dtype.Uint8)
	plainRow[uint16](dtype.Uint16)
	plainRow[uint32](dtype.Uint32)
	plainRow[uint64](dtype.Uint64)
	plainRow[float32](dtype.Float32)
	table[dtype.Float32][dtype.Int64] = convertWith(int64ToFloat32) // Go's own rounds twice on 386
	table[dtype.Float32][dtype.Uint64] = convertWith(uint64ToFloat32)
	plainRow[float64](dtype.Float64)

	for _, d := range dtype.All {
		switch d.Size() {
		case 1:
			table[d][d] = copyElems[uint8]
		case 2:
			table[d][d] = copyElems[uint16]
		case 4:
			table[d][d] = copyElems[uint32]
		case 8:
			table[d][d] = copyElems[uint64]
		case 16:
			table[d][d] = copyElems[[2]uint64]
		}
	}

	const f32, f64, c64, c128 = dtype.Float32, dtype.Float64, dtype.Complex64, dtype.Complex128
	table[f32][dtype.Int32] = vectorized(&active.int32ToFloat32)
	table[f64][f32] = vectorized(&active.float32ToFloat64)
	table[f32][f64] = vectorized(&active.float64ToFloat32)
	table[f32][dtype.Float16] = float16ToFloat32
	table[f32][dtype.BFloat16] = bfloat16ToFloat32
	table[dtype.Float16][f32] = float32ToFloat16
	table[dtype.BFloat16][f32] = float32ToBFloat16

	table[c64][f32] = toComplex64
	table[c128][f64] = toComplex128
	table[f32][c64] = realOf64
	table[f64][c128] = realOf128
	table[c64][c128] = convertComplex[complex64, complex128]
	table[c128][c64] = convertComplex[complex128, complex64]
	table[dtype.Bool][c64] = complexToBool[complex64]
	table[dtype.Bool][c128] = complexToBool[complex128]

	for _, d := range dtype.All {
		for _, s := range dtype.All {
			get(d, s)
		}
	}
}

// plainRow fills the row of the plain destination type D: Go's conversion
// from every integer, and from the floats when D is a float too, the
// float → integer rule when it is not; 0 or 1 from bool. It also fills D's
// entry in the bool row.
func plainRow[D plain](d dtype.DType) {
	row := &table[d]
	row[dtype.Int8] = convert[D, int8]
	row[dtype.Int16] = convert[D, int16]
	row[dtype.Int32] = convert[D, int32]
	row[dtype.Int64] = convert[D, int64]
	row[dtype.Uint8] = convert[D, uint8]
	row[dtype.Uint16] = convert[D, uint16]
	row[dtype.Uint32] = convert[D, uint32]
	row[dtype.Uint64] = convert[D, uint64]
	switch {
	case d.IsFloat():
		row[dtype.Float32] = convert[D, float32]
		row[dtype.Float64] = convert[D, float64]
	case d.IsSigned():
		row[dtype.Float32] = floatToSigned[D, float32]
		row[dtype.Float64] = floatToSigned[D, float64]
	default:
		row[dtype.Float32] = floatToUnsigned[D, float32]
		row[dtype.Float64] = floatToUnsigned[D, float64]
	}
	row[dtype.Bool] = fromBool[D]
	table[dtype.Bool][d] = toBool[D]
}

// get returns the kernel for d ← s, composing it from others when the
// table has no direct one yet. The composition keeps every rounding single:
// the intermediate either holds the source exactly or is the destination's
// own rounding of it, except for wide sources into the 16-bit floats, which
// go through a rounded-to-odd float32 (see oddFloat64).
func get(d, s dtype.DType) kernel {
	if k := table[d][s]; k != nil {
		return k
	}
	const f32, f64 = dtype.Float32, dtype.Float64
	var k kernel
	switch half := d == dtype.Float16 || d == dtype.BFloat16; {
	case half && s == dtype.Float64:
		k = staged(4, oddFromFloat64, get(d, f32))
	case half && (s == dtype.Int32 || s == dtype.Int64 || s == dtype.Uint32 || s == dtype.Uint64):
		k = staged(4, oddKernel(s), get(d, f32))
	case s == dtype.Complex64 && !d.IsComplex():
		k = staged(4, get(f32, s), get(d, f32))
	case s == dtype.Complex128 && !d.IsComplex():
		k = staged(8, get(f64, s), get(d, f64))
	case d == dtype.Complex64:
		k = staged(4, get(f32, s), get(d, f32))
	case d == dtype.Complex128:
		k = staged(8, get(f64, s), get(d, f64))
	default: // a 16-bit float on one side, with bool, a narrow integer, float32 or the other one
		k = staged(4, get(f32, s), get(d, f32))
	}
	table[d][s] = k
	return k
}

// oddKernel returns the round-to-odd narrowing of a wide integer source.
func oddKernel(s dtype.DType) kernel {
	switch s {
	case dtype.Int32:
		return oddFromSigned[int32]
	case dtype.Int64:
		return oddFromSigned[int64]
	case dtype.Uint32:
		return oddFromUnsigned[uint32]
	case dtype.Uint64:
		return oddFromUnsigned[uint64]
	}
	panic("cast: no round-to-odd kernel for " + s.String())
}
