package tensor

import (
	"errors"
	"sync"
	"testing"
)

// TestMatmulConfigScope checks that a MatmulConfig decides the precision of
// its products whatever the process-wide setting is, while that setting
// changes, and that a later option of the same call overrides it.
func TestMatmulConfigScope(t *testing.T) {
	old := MatmulPrecision()
	defer SetMatmulPrecision(old)
	// 1.0001 rounds to 1 in TF32 (10 mantissa bits) but not in float32.
	a := Must(FromNested([][]float32{{1.0001}}))
	b := Must(FromNested([][]float32{{1}}))
	exact, rounded := float32(1.0001), float32(1)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for _, c := range []struct {
		cfg  MatmulConfig
		want float32
	}{{MatmulConfig{}, exact}, {MatmulConfig{Precision: TF32}, rounded}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := Must(Zeros(Float32, 1, 1))
			for range 200 {
				y, err := c.cfg.Matmul(a, b)
				if err == nil {
					err = c.cfg.MatmulInto(out, a, b)
				}
				if err != nil {
					errs <- err
					return
				}
				if g := Must2(Get[float32](y, 0, 0)); g != c.want {
					errs <- errors.New("a config's product followed the process-wide precision")
					return
				}
				if g := Must2(Get[float32](out, 0, 0)); g != c.want {
					errs <- errors.New("a config's MatmulInto followed the process-wide precision")
					return
				}
			}
		}()
	}
	for i := range 400 {
		SetMatmulPrecision(Precision(i % 2))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// The option of the call wins over the config, and the config over
	// the process default.
	SetMatmulPrecision(TF32)
	if y := Must(MatmulConfig{Precision: TF32}.Matmul(a, b, WithPrecision(Highest))); Must2(Get[float32](y, 0, 0)) != exact {
		t.Error("WithPrecision after a config did not override it")
	}
	if y := Must(Matmul(a, b, MatmulConfig{}.Option())); Must2(Get[float32](y, 0, 0)) != exact {
		t.Error("a zero MatmulConfig followed the process-wide TF32")
	}
	if _, err := (MatmulConfig{Precision: 7}).Matmul(a, b); !errors.Is(err, ErrValue) {
		t.Errorf("an invalid precision in a config: %v", err)
	}
}

// TF32 against Highest: on a CPU the TF32 rounding is extra work, so TF32
// is the slower of the two (issue 19 measured 540 against 255 µs).
func BenchmarkMatmulPrecision(b *testing.B) {
	x := Must(Rand(1, Float32, -1, 1, 256, 129))
	y := Must(Rand(2, Float32, -1, 1, 129, 128))
	for _, p := range []Precision{Highest, TF32} {
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				Matmul(x, y, WithPrecision(p))
			}
		})
	}
}
