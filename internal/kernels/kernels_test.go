package kernels

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestChoose(t *testing.T) {
	hi := &Set{Name: "hi", Requires: []string{"X"}}
	mid := &Set{Name: "mid", supported: true, Lower: Generic}
	hi.Lower = mid
	list := []*Set{hi, mid, Generic}
	for _, c := range []struct {
		req, want, why string
		warn           bool
	}{
		{"", "mid", "best supported", false},
		{"mid", "mid", "TENSOR_KERNELS=mid", false},
		{" MID ", "mid", "TENSOR_KERNELS=mid", false},
		{"generic", "generic", "TENSOR_KERNELS=generic", false},
		{"hi", "mid", "cannot run (it needs X)", false},
		{"avx-2", "mid", `"avx-2" names no kernel set (hi, mid, generic)`, true},
	} {
		got := choose(c.req, list)
		if got.active.Name != c.want || !strings.Contains(got.why, c.why) || (got.warn != "") != c.warn {
			t.Errorf("choose(%q) = %s, %q, warn %q; want %s, %q, warn %v", c.req, got.active, got.why, got.warn, c.want, c.why, c.warn)
		}
	}
}

func TestRunnableEndsWithGeneric(t *testing.T) {
	r := Runnable()
	if len(r) == 0 || r[0] != Active() || r[len(r)-1] != Generic {
		t.Fatalf("Runnable() = %v with %v active", r, Active())
	}
	for _, s := range r {
		if !s.Supported() {
			t.Errorf("%s listed but not supported", s)
		}
	}
}

func TestTableFallsBackToLower(t *testing.T) {
	hi := &Set{Name: "hi", supported: true, Lower: Generic}
	top := &Set{Name: "top", supported: true, Lower: hi}
	var dst string
	tab := NewTable(&dst, "go")
	if dst != "go" {
		t.Fatalf("dst = %q after NewTable", dst)
	}
	tab.Add(hi, "hi-kernel")
	if got := tab.For(top); got != "hi-kernel" {
		t.Errorf("For(top) = %q, want the lower set's entry", got)
	}
	if got := tab.For(Generic); got != "go" {
		t.Errorf("For(generic) = %q", got)
	}
	restore := tab.Use(hi)
	if dst != "hi-kernel" {
		t.Errorf("Use(hi) left %q", dst)
	}
	restore()
	if dst != tab.For(Active()) {
		t.Errorf("restore left %q", dst)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"48K": 48 << 10, "2M": 2 << 20, "512": 512, "": 0, "xK": 0, "-1K": 0} {
		if got := parseSize(in); got != want {
			t.Errorf("parseSize(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestCacheSizesPlausible(t *testing.T) {
	c := CacheSizes()
	if !plausible(c) || c.L3 < c.L2 {
		t.Fatalf("CacheSizes() = %+v", c)
	}
	t.Logf("%+v, active %s (%s)", c, Active(), Why())
}

// TestPermissionAskedOnce checks a set that needs a permission: chosen on
// its features without asking, asked once by Permitted or Supported, and
// replaced by the best supported set below it once refused.
func TestPermissionAskedOnce(t *testing.T) {
	for _, grant := range []bool{true, false} {
		asked := 0
		low := &Set{Name: "low", supported: true, Lower: Generic}
		skipped := &Set{Name: "skipped", Lower: low}
		top := &Set{Name: "top", supported: true, Lower: skipped,
			permission: &permission{ask: func() bool { asked++; return grant }}}
		c := choose("", []*Set{top, skipped, low, Generic})
		if c.active != top || asked != 0 || inUse(c.active) != top {
			t.Fatalf("grant %v: chose %s, asked %d times before any use", grant, c.active, asked)
		}
		for range 3 {
			if top.Permitted() != grant || top.Supported() != grant {
				t.Fatalf("grant %v: Permitted %v, Supported %v", grant, top.Permitted(), top.Supported())
			}
		}
		want := top
		if !grant {
			want = low
		}
		if asked != 1 || inUse(top) != want {
			t.Fatalf("grant %v: asked %d times, in use %s", grant, asked, inUse(top))
		}
	}
}

// TestProcessorID checks the CPUID decoding against what Linux reports
// for cpu0, where it says.
func TestProcessorID(t *testing.T) {
	p := ProcessorID()
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil || p.Vendor == "" {
		t.Skipf("no /proc/cpuinfo or no CPUID (%v, %+v)", err, p)
	}
	field := func(name string) string {
		for _, line := range strings.Split(string(info), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == name {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	if got := field("vendor_id"); got != p.Vendor {
		t.Errorf("vendor %q, /proc/cpuinfo says %q", p.Vendor, got)
	}
	if got := field("cpu family"); got != strconv.Itoa(p.Family) {
		t.Errorf("family %d, /proc/cpuinfo says %s", p.Family, got)
	}
	if got := field("model"); got != strconv.Itoa(p.Model) {
		t.Errorf("model %d, /proc/cpuinfo says %s", p.Model, got)
	}
}

// TestForProcessor checks the lookup of measured tables: an entry without
// models serves its vendor's family whatever the model, one with models
// those models only, the first match wins, and nothing else matches.
func TestForProcessor(t *testing.T) {
	table := []Measured[int]{
		{Vendor: "AuthenticAMD", Family: 0x1A, Value: 7},
		{Vendor: "GenuineIntel", Family: 6, Models: []int{0xCF, 0xAD}, Value: 5},
		{Vendor: "GenuineIntel", Family: 6, Value: 9},
	}
	for _, c := range []struct {
		p    Processor
		want int
	}{
		{Processor{Vendor: "AuthenticAMD", Family: 0x1A, Model: 2}, 7},
		{Processor{Vendor: "AuthenticAMD", Family: 0x1A, Model: 0x44}, 7},
		{Processor{Vendor: "GenuineIntel", Family: 6, Model: 0xCF}, 5},
		{Processor{Vendor: "GenuineIntel", Family: 6, Model: 0xAD}, 5},
		{Processor{Vendor: "GenuineIntel", Family: 6, Model: 0x8F}, 9},
		{Processor{Vendor: "AuthenticAMD", Family: 0x19}, -1},
		{Processor{Vendor: "GenuineIntel", Family: 0x1A}, -1},
		{Processor{}, -1},
	} {
		if got := ForProcessor(c.p, table, -1); got != c.want {
			t.Errorf("ForProcessor(%+v) = %d, want %d", c.p, got, c.want)
		}
	}
	if got := ForProcessor(Processor{Vendor: "GenuineIntel", Family: 6, Model: 0xCF}, table[1:2], -1); got != 5 {
		t.Errorf("a models entry alone: %d, want 5", got)
	}
	if got := ForProcessor(Processor{Vendor: "GenuineIntel", Family: 6, Model: 0x8F}, table[1:2], -1); got != -1 {
		t.Errorf("a model the entry does not name: %d, want the default", got)
	}
}
