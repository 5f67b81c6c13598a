package scratch

import (
	"runtime"
	"testing"
)

// TestListSurvivesCollections checks that a value put back is the one the
// next Get returns even after garbage collections (a sync.Pool would have
// dropped it), and that at most one idle value per processor is kept.
func TestListSurvivesCollections(t *testing.T) {
	made := 0
	l := List[[64]byte]{New: func() *[64]byte { made++; return new([64]byte) }}
	v := l.Get()
	l.Put(v)
	runtime.GC()
	runtime.GC()
	if got := l.Get(); got != v || made != 1 {
		t.Errorf("after two collections Get returned a new value (made %d)", made)
	}
	var held []*[64]byte
	for range runtime.GOMAXPROCS(0) + 3 {
		held = append(held, l.Get())
	}
	for _, h := range held {
		l.Put(h)
	}
	if idle := l.Idle(); idle != runtime.GOMAXPROCS(0) {
		t.Errorf("%d idle values kept, want one per processor (%d)", idle, runtime.GOMAXPROCS(0))
	}
}
