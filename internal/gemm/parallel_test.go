package gemm

import (
	"fmt"
	"sync"
	"testing"
)

// TestSplitCoversRange checks that split's ranges tile [0, n) in order,
// start at multiples of unit and are cut at most threads·partsPerThread
// ways.
func TestSplitCoversRange(t *testing.T) {
	for _, tc := range []struct{ n, unit, threads int }{
		{1, 1, 2}, {7, 1, 2}, {100, 4, 2}, {4096, 64, 2}, {4096, 64, 3}, {33, 32, 4}, {1000, 12, 1},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			var mu sync.Mutex
			seen := make([]int, tc.n)
			calls := 0
			split(tc.n, tc.unit, tc.threads, func(i0, i1 int) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if i0%tc.unit != 0 || i0 >= i1 {
					t.Errorf("range [%d, %d) is empty or not aligned to %d", i0, i1, tc.unit)
				}
				for i := i0; i < i1; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("index %d covered %d times", i, c)
				}
			}
			if calls > max(1, tc.threads*partsPerThread) {
				t.Errorf("%d ranges, want at most %d", calls, tc.threads*partsPerThread)
			}
		})
	}
}

// TestThreadsFor checks how many goroutines a product's work gets: one
// per minFlopsPerThread of float32 work, never fewer than one nor more
// than asked, float64 counting twice per multiply-add.
func TestThreadsFor(t *testing.T) {
	defer func(saved int) { active.minFlopsPerThread = saved }(active.minFlopsPerThread)
	active.minFlopsPerThread = 1000
	for _, tc := range []struct {
		threads, work, f32, f64 int
	}{
		{8, 0, 1, 1}, {8, 999, 1, 1}, {8, 1000, 1, 2}, {8, 1999, 1, 3}, {8, 2000, 2, 4},
		{8, 3500, 3, 7}, {8, 100000, 8, 8}, {1, 100000, 1, 1}, {0, 5000, 1, 1},
	} {
		if got := threadsFor[float32](tc.threads, tc.work); got != tc.f32 {
			t.Errorf("threadsFor[float32](%d, %d) = %d, want %d", tc.threads, tc.work, got, tc.f32)
		}
		if got := threadsFor[float64](tc.threads, tc.work); got != tc.f64 {
			t.Errorf("threadsFor[float64](%d, %d) = %d, want %d", tc.threads, tc.work, got, tc.f64)
		}
		if got := threadsFor[int64](tc.threads, tc.work); got != tc.f64 {
			t.Errorf("threadsFor[int64](%d, %d) = %d, want %d", tc.threads, tc.work, got, tc.f64)
		}
		// A complex product's parts: complex64's are float32, complex128's float64.
		if got := threadsForSize(tc.threads, tc.work, 8/2); got != tc.f32 {
			t.Errorf("threadsForSize(%d, %d, complex64's parts) = %d, want %d", tc.threads, tc.work, got, tc.f32)
		}
		if got := threadsForSize(tc.threads, tc.work, 16/2); got != tc.f64 {
			t.Errorf("threadsForSize(%d, %d, complex128's parts) = %d, want %d", tc.threads, tc.work, got, tc.f64)
		}
	}
}

// TestSameKernelsSameThreadThreshold checks that kernel sets multiplying
// float32 on the same micro-kernel (the avx512 set on the processors of
// avx2GEMMOn takes the AVX2 ones) give a product a second goroutine at the
// same size: the threshold stands for a time, and the same kernel does as
// much work in it.
func TestSameKernelsSameThreadThreshold(t *testing.T) {
	sets := kernelSets.Variants()
	for i, a := range sets {
		for _, b := range sets[i+1:] {
			if a.K.f32 == b.K.f32 && a.K.minFlopsPerThread != b.K.minFlopsPerThread {
				t.Errorf("sets %s and %s share the float32 kernel %s but start a second goroutine at %d and %d multiply-adds",
					a.Name(), b.Name(), a.K.f32.name, a.K.minFlopsPerThread, b.K.minFlopsPerThread)
			}
		}
	}
}
