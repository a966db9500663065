package grammar

import (
	"encoding/json"
	"os"
	"testing"
)

// TestContractions: the cases of testdata/contractions.json, which the
// interface's test of the same rule reads too (ui/src/feed.test.ts).
func TestContractions(t *testing.T) {
	raw, err := os.ReadFile("testdata/contractions.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, De, A string }
	if err := json.Unmarshal(raw, &cases); err != nil || len(cases) < 10 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
	for _, c := range cases {
		if got := De(c.Name); got != c.De {
			t.Errorf("De(%q) = %q, want %q", c.Name, got, c.De)
		}
		if got := A(c.Name); got != c.A {
			t.Errorf("A(%q) = %q, want %q", c.Name, got, c.A)
		}
	}
}
