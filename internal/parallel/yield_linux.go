package parallel

import "syscall"

// osYield gives the CPU to another runnable thread, if any, and returns at
// once otherwise. The polling loops of parallel.go call it so that, on a
// machine with more runnable threads than cores, a polling goroutine does
// not take the core from the goroutine whose part it is waiting for (or
// from another process). It is a raw system call: it never blocks, so the
// goroutine keeps its P.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
