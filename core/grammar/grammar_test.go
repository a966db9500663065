package grammar

import (
	"encoding/json"
	"os"
	"testing"
)

// TestContractions: the cases of testdata/contractions.json, which the
// interface's test of the same rules reads too (ui/src/feed.test.ts): "de"
// and "à" before the name, and the auxiliary "avoir" after it.
func TestContractions(t *testing.T) {
	raw, err := os.ReadFile("testdata/contractions.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, De, A, Avoir string }
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
		if got := Avoir(c.Name); got != c.Avoir {
			t.Errorf("Avoir(%q) = %q, want %q", c.Name, got, c.Avoir)
		}
		if got, want := Agree(c.Name, "propose", "proposent"), map[string]string{"a": "propose", "ont": "proposent"}[c.Avoir]; got != want {
			t.Errorf("Agree(%q) = %q, want %q", c.Name, got, want)
		}
	}
}

// TestElide: the cases of testdata/elisions.json, which the interface's
// test reads too (ui/src/grammar.test.ts): "de", "le", "la", "que" elided
// before a vowel or a mute "h", never before an aspirated one.
func TestElide(t *testing.T) {
	raw, err := os.ReadFile("testdata/elisions.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Word, Text, Want string }
	if err := json.Unmarshal(raw, &cases); err != nil || len(cases) < 10 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
	for _, c := range cases {
		if got := Elide(c.Word, c.Text); got != c.Want {
			t.Errorf("Elide(%q, %q) = %q, want %q", c.Word, c.Text, got, c.Want)
		}
	}
}
