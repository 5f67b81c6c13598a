package tensor

import (
	"time"

	"github.com/tensor-go/tensor/internal/parallel"
)

// SetHelperSpin sets how long the library's helper goroutines keep polling
// for the next parallel call after finishing their part of one, and
// returns the previous setting. Polling lets calls issued back to back
// start on every core at once without waking anyone; a blocked helper
// costs nothing. Whatever the setting, a helper polls at most a quarter of
// the time it has just worked, so calls issued now and then cost at most
// about a quarter more CPU than their work; in a loop of calls that come
// back to back, it polls as long as the last call lasted. The default is
// 1 ms, or the TENSOR_SPIN environment variable (a Go duration such as
// "0", "200us" or "5ms") read at start-up; 0 makes helpers block as soon
// as they run out of work. See docs/memory.md.
func SetHelperSpin(d time.Duration) time.Duration { return parallel.SetSpin(d) }
