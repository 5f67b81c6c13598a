package npy

import (
	"fmt"
	"strconv"
)

// maxQuoted bounds how much of a string from the input an error message
// repeats: a header can be 4 GiB, and an error line the size of the input
// helps nobody (a 50 MB header once made a 52 MB message).
const maxQuoted = 48

// quote returns s Go-quoted, cut after its first maxQuoted bytes with the
// full length said, so that error texts stay short whatever the input.
func quote[S ~string | ~[]byte](s S) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(string(s))
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(string(s[:maxQuoted])), len(s))
}
