package main

import (
	"strings"
)

// checkFilters rejects a bench FILTER that matches no workload, so that a
// mistyped name is a usage error listing the names rather than a silent
// run of nothing.
func checkFilters(filters []string, workloads []workload) error {
	for _, f := range filters {
		found := false
		for _, w := range workloads {
			if strings.Contains(w.Name, f) {
				found = true
				break
			}
		}
		if !found {
			names := make([]string, len(workloads))
			for i, w := range workloads {
				names[i] = w.Name
			}
			return usagef("bench: no workload matches %q; the workloads are: %s", f, strings.Join(names, " "))
		}
	}
	return nil
}
