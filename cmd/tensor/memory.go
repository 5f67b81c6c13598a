package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// fallbackBudget bounds results when the system does not say how much
// memory is available.
const fallbackBudget = 8 << 30

// memoryBudget returns how many bytes one result may take: the memory
// the kernel reports as available (MemAvailable plus free swap, from
// /proc/meminfo), or fallbackBudget where that file does not exist. The
// evaluator refuses larger results with an error instead of letting the Go
// runtime abort the process when the allocation fails.
func memoryBudget() int {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallbackBudget
	}
	defer f.Close()
	total, found := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != "MemAvailable" && key != "SwapFree" {
			continue
		}
		kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		if err != nil {
			continue
		}
		total += kb << 10
		found = found || key == "MemAvailable"
	}
	if !found || total <= 0 {
		return fallbackBudget
	}
	return total
}
