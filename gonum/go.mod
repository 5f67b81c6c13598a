module github.com/tensor-go/tensor/gonum

go 1.26.0

replace github.com/tensor-go/tensor => ../

require (
	github.com/tensor-go/tensor v0.0.0-00010101000000-000000000000
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
