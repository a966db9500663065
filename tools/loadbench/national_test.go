package main

import (
	"strings"
	"testing"
)

// TestSpliceNational: the first report appends the section at the end of
// the page under its heading; the next ones replace what is between the
// markers and nothing else; markers out of order are refused.
func TestSpliceNational(t *testing.T) {
	page := "# Benchmarks\n\n## Other (issue 9)\n\ntext\n"
	first, err := spliceNational(page, "figures 1\n")
	if err != nil {
		t.Fatal(err)
	}
	want := page + "\n" + nationalHeading + "\n\n" + nationalBegin + "\nfigures 1\n" + nationalEnd + "\n"
	if first != want {
		t.Fatalf("first report:\n%q\nwant\n%q", first, want)
	}
	edited := first + "\n### What is left\n\nhand-written\n"
	second, err := spliceNational(edited, "figures 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if second != strings.Replace(edited, "figures 1", "figures 2", 1) {
		t.Fatalf("second report:\n%q", second)
	}
	if _, err := spliceNational(nationalEnd+"\n"+nationalBegin+"\n", "x\n"); err == nil {
		t.Fatal("markers out of order were accepted")
	}
}
