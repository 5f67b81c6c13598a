package bfloat16

import "strconv"

func formatFloat32(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }
