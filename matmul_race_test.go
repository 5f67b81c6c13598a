//go:build race

package tensor

// mmRaceEnabled reports a -race build, in which sync.Pool drops objects at
// random and allocation counts vary from run to run.
const mmRaceEnabled = true
