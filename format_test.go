package tensor

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strconv"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/x448/float16"
)

// goldenCase is one array of testdata/format_golden.json, written by
// testdata/gen_format.py from NumPy's own printing.
type goldenCase struct {
	Note  string `json:"note"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Hex   string `json:"hex"`
	Want  string `json:"want"`
}

func loadGolden(t *testing.T) []goldenCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/format_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []goldenCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file.Cases
}

// fromBytes builds a contiguous tensor whose storage holds exactly the
// given little-endian bytes.
func fromBytes(t *testing.T, name string, s []int, data []byte) *Tensor {
	t.Helper()
	dt, err := dtype.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	x, err := empty(dt, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != x.n*dt.Size() {
		t.Fatalf("%d bytes for %d %v elements", len(data), x.n, dt)
	}
	copy(unsafe.Slice((*byte)(x.storage), len(data)), data)
	return x
}

func TestStringGolden(t *testing.T) {
	failures := 0
	for i, c := range loadGolden(t) {
		data, err := hex.DecodeString(c.Hex)
		if err != nil {
			t.Fatal(err)
		}
		x := fromBytes(t, c.DType, c.Shape, data)
		if got := x.String(); got != c.Want {
			t.Errorf("case %d (%s, %s %v):\n got %q\nwant %q", i, c.Note, c.DType, c.Shape, got, c.Want)
			if failures++; failures > 30 {
				t.Fatal("too many failures")
			}
		}
	}
}

// distance returns |mantissa × 10^exp - f| exactly.
func distance(mantissa int64, exp int, f float64) *big.Rat {
	v := new(big.Rat).SetInt64(mantissa)
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(exp, -exp))), nil))
	if exp >= 0 {
		v.Mul(v, p)
	} else {
		v.Quo(v, p)
	}
	v.Sub(v, new(big.Rat).SetFloat64(f))
	return v.Abs(v)
}

// TestShortestHalfAll checks the float16 shortest digits of every finite
// float16 by their definition: they read back as the same float16, no
// decimal with one digit fewer does, and no other decimal of as many
// digits that reads back is nearer.
func TestShortestHalfAll(t *testing.T) {
	// roundTrips reports whether mantissa × 10^exp reads back as h.
	roundTrips := func(mantissa int64, exp int, h uint16) bool {
		v, err := strconv.ParseFloat(strconv.FormatInt(mantissa, 10)+"e"+strconv.Itoa(exp), 64)
		return err == nil && halfFromFloat64(v).Bits() == h
	}
	for bits := uint16(1); bits < 0x7c00; bits++ {
		f := float64(float16.Frombits(bits).Float32())
		d := shortestDigits(f, 16)
		n := len(d.digits)
		m, _ := strconv.ParseInt(d.digits, 10, 64)
		exp := d.point - n // value = m × 10^exp
		if !roundTrips(m, exp, bits) {
			t.Fatalf("%v: digits %s×10^%d do not read back", f, d.digits, exp)
		}
		// The decimals of n-1 digits on either side of f.
		scale := math.Pow(10, float64(exp+1))
		below := int64(math.Floor(f / scale))
		for _, c := range []int64{below, below + 1} {
			if n > 1 && c > 0 && roundTrips(c, exp+1, bits) {
				t.Fatalf("%v: %d×10^%d is shorter than %s", f, c, exp+1, d.digits)
			}
		}
		// Neighbours with as many digits are no nearer (compared exactly);
		// at a tie the even one wins, as in Dragon4.
		for _, c := range []int64{m - 1, m + 1} {
			if !roundTrips(c, exp, bits) {
				continue
			}
			switch distance(c, exp, f).Cmp(distance(m, exp, f)) {
			case -1:
				t.Fatalf("%v: %d×10^%d is nearer than %s", f, c, exp, d.digits)
			case 0:
				if m%2 == 1 {
					t.Fatalf("%v: tie between %d and %d×10^%d goes to the odd one", f, c, m, exp)
				}
			}
		}
	}
}

func BenchmarkString(b *testing.B) {
	for _, c := range []struct {
		name  string
		shape []int
	}{{"float32x1000", []int{10, 100}}, {"float32x1e6", []int{1000, 1000}}} {
		x := Must(Rand(1, Float32, -100, 100, c.shape...))
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				_ = x.String()
			}
		})
	}
}
