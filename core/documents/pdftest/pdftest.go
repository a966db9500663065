// Package pdftest reads the text of PDFs in tests, with pdftotext
// (poppler-utils, which .ci/run installs): what a reader of the document
// sees, not what the generator meant to write.
package pdftest

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var space = regexp.MustCompile(`[\s\x{00a0}\x{202f}]+`)

// Lines returns the PDF's text one line per line, spacing normalised (one
// space between words, no empty line), each line ended by a newline. It
// skips the test when pdftotext is missing, and fails it on bytes that are
// not a PDF or that pdftotext complains about.
func Lines(t testing.TB, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed (apt-get install poppler-utils; .ci/run does)")
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	cmd := exec.Command(bin, "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftotext: %v: %s", err, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Fatalf("pdftotext complains: %s", errOut.String())
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if l = strings.TrimSpace(space.ReplaceAllString(l, " ")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// Text returns the PDF's text on one line, words separated by one space.
func Text(t testing.TB, pdf []byte) string {
	t.Helper()
	return strings.ReplaceAll(strings.TrimSuffix(Lines(t, pdf), "\n"), "\n", " ")
}
