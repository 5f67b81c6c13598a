package main

import (
	"regexp"
	"strings"
)

// The library's messages name its Go API (convert with ToDense first,
// AsType(Float32)); the command's users write the expression language, so
// those names are rewritten to the functions they would call here.

// goNames maps the Go API's names to the command's functions.
var goNames = strings.NewReplacer(
	"ToDense", "to_dense",
	"ToSparseCOO", "to_sparse_coo",
	"ToSparseCSR", "to_sparse_csr",
	"BroadcastTo", "broadcast_to",
)

// asTypeCall is the library's AsType(Float32), the command's astype(x, float32).
var asTypeCall = regexp.MustCompile(`AsType\(([A-Z][A-Za-z0-9]*)\)`)

// goScalar is the library's "Go scalar -1 (int64)": a number the command's
// user typed, whose Go type they never chose.
var goScalar = regexp.MustCompile(`Go scalar (\S+) \((?:bool|int64|float64|complex128)\)`)

// cliWords rewrites a message in the command's words.
func cliWords(msg string) string {
	msg = goScalar.ReplaceAllString(msg, "scalar $1")
	msg = asTypeCall.ReplaceAllStringFunc(msg, func(m string) string {
		return "astype(x, " + strings.ToLower(asTypeCall.FindStringSubmatch(m)[1]) + ")"
	})
	return goNames.Replace(msg)
}

// oneLine formats an error as run does: prefixed, on one line, in the
// command's words.
func oneLine(err error) string {
	msg := err.Error()
	if !strings.HasPrefix(msg, "tensor: ") {
		msg = "tensor: " + msg
	}
	return cliWords(strings.ReplaceAll(msg, "\n", " "))
}
