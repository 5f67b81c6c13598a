module github.com/tensor-go/tensor

go 1.26
