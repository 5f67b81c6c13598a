//go:build !race

package iter

const raceEnabled = false
