module github.com/tensor-go/tensor

go 1.26.0

require golang.org/x/sys v0.50.0

require github.com/x448/float16 v0.8.4
