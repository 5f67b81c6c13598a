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

// Grow keeps the buffer when its capacity is enough (same backing array,
// the new length) and allocates when it is not.
func TestGrow(t *testing.T) {
	s := make([]float64, 3, 8)
	if g := Grow(s, 8); len(g) != 8 || &g[0] != &s[0] {
		t.Fatalf("Grow within capacity: len %d, same array %v", len(g), &g[0] == &s[0])
	}
	if g := Grow(s, 2); len(g) != 2 || &g[0] != &s[0] {
		t.Fatalf("Grow shorter: len %d", len(g))
	}
	if g := Grow(s, 9); len(g) != 9 || cap(s) != 8 {
		t.Fatalf("Grow beyond capacity: len %d", len(g))
	}
	if g := Grow[int32](nil, 0); len(g) != 0 {
		t.Fatalf("Grow(nil, 0): len %d", len(g))
	}
}
