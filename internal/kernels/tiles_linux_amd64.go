//go:build !purego

package kernels

import "syscall"

// Linux keeps the AMX tile data state (8 KiB per thread) disabled until a
// process asks for it: arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)
// grants it to every thread of the process, or fails (a kernel before 5.16,
// a processor or hypervisor without the state, a signal stack too small for
// it). Without the permission the first tile instruction kills the process
// with SIGILL, so a refused request leaves the AMX set unsupported.
const (
	archReqXcompPerm  = 0x1023
	xfeatureXtiledata = 18
)

// tileDataPermitted asks; AMX's permission calls it once, at the first use
// (the kernel keeps the permission for the life of the process).
func tileDataPermitted() bool {
	_, _, errno := syscall.RawSyscall(syscall.SYS_ARCH_PRCTL, archReqXcompPerm, xfeatureXtiledata, 0)
	return errno == 0
}
