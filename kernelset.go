package tensor

import "github.com/tensor-go/tensor/internal/kernels"

// KernelSet returns the name of the kernel set the library runs: "amx",
// "avx512" or "avx2" on amd64, "generic" (the pure-Go kernels) everywhere and under
// the purego build tag. It is the best set the processor supports unless
// the environment variable TENSOR_KERNELS names a lower one, read once at
// start-up: TENSOR_KERNELS=avx2 runs the AVX2 kernels on an AVX-512
// machine, TENSOR_KERNELS=generic only the Go ones. A set the processor
// cannot run gives the best one below it; an unknown name gives the best
// supported set and a warning on standard error. The amx set is chosen
// on the processor's features; the operating system's permission for its
// tiles is asked at the first bfloat16 product that would use them, and if
// it is refused KernelSet reports "avx512" from then on. Results never depend on
// the set beyond the rounding differences docs/kernels.md lists.
func KernelSet() string { return kernels.Active().Name }
