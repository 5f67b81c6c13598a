package npy

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// Run with: go test -run=XXX -bench=. -benchtime=20x ./npy
//
// BenchmarkAllocCopy is the floor any reader into a fresh buffer pays
// (allocate, then copy 64 MiB); the Read benchmarks are judged against it.

const benchBytes = 64 << 20

func benchFile(b *testing.B, descr string) []byte {
	b.Helper()
	rng := rand.New(rand.NewPCG(9, 10))
	data := make([]byte, benchBytes)
	for i := 0; i < len(data); i += 8 {
		binary.LittleEndian.PutUint64(data[i:], rng.Uint64())
	}
	d, _, err := parseDescr(descr)
	if err != nil {
		b.Fatal(err)
	}
	header := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1024, " +
		strconv.Itoa(benchBytes/1024/d.Size()) + "), }"
	return rawNPY(1, header, data)
}

func BenchmarkAllocCopy(b *testing.B) {
	src := make([]byte, benchBytes)
	b.SetBytes(benchBytes)
	for b.Loop() {
		dst := make([]byte, benchBytes)
		copy(dst, src)
	}
}

func BenchmarkRead(b *testing.B) {
	for _, c := range []struct{ name, descr string }{
		{"f4", "<f4"}, {"f4-bigendian", ">f4"}, {"f8-bigendian", ">f8"}, {"f2-bigendian", ">f2"},
	} {
		in := benchFile(b, c.descr)
		for _, sized := range []bool{true, false} {
			name := c.name + "/sized"
			if !sized {
				name = c.name + "/unsized"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(benchBytes)
				for b.Loop() {
					var r io.Reader = bytes.NewReader(in)
					if !sized {
						r = onlyReader{r}
					}
					if _, err := Read(r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.npy")
	if err := os.WriteFile(path, benchFile(b, "<f4"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	for b.Loop() {
		if _, err := ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	a := &Array{Header: Header{DType: dtype.Float32, Shape: []int{4096, 4096}}, Data: make([]byte, benchBytes)}
	b.SetBytes(benchBytes)
	for b.Loop() {
		if err := Write(io.Discard, a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSwap(b *testing.B) {
	buf := make([]byte, benchBytes)
	for i := range buf {
		buf[i] = byte(i) // fault the pages in before timing
	}
	for _, d := range []dtype.DType{dtype.Float16, dtype.Float32, dtype.Float64} {
		b.Run(d.String(), func(b *testing.B) {
			b.SetBytes(benchBytes)
			for b.Loop() {
				swapBytes(buf, d)
			}
		})
	}
}
