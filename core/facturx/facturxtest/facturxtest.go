// Package facturxtest validates Factur-X documents made by tests with the
// official Factur-X EN 16931 XSD and schematrons and the French CTC rules
// (testdata/facturx/validate.sh).
//
// Two ways: ValidateDir runs the kit on a directory at once (a cold Java start
// costs seconds, so a test gathers its documents and validates them in
// one call); Keep copies a document into $PRIMEUR_FACTURX_OUT, which
// `make test` validates after the Go tests, in one call, so that every
// invoice and credit note any test makes passes the rules.
package facturxtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// EnvOut names the directory where Keep writes the documents to validate.
const EnvOut = "PRIMEUR_FACTURX_OUT"

// Script is the path of validate-all.sh, which validates a directory.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "facturx", "validate-all.sh")
}

// Available says whether the kit's tools are installed, and if not which
// package is missing.
func Available() (bool, string) {
	for tool, pkg := range map[string]string{"xmllint": "libxml2-utils", "java": "default-jre-headless", "pdfdetach": "poppler-utils"} {
		if _, err := exec.LookPath(tool); err != nil {
			return false, pkg
		}
	}
	if _, err := os.Stat("/usr/share/java/Saxon-HE.jar"); err != nil {
		return false, "libsaxonhe-java"
	}
	return true, ""
}

var kept atomic.Int64

// Keep writes a Factur-X PDF or its XML (by name's extension) into
// $PRIMEUR_FACTURX_OUT when it is set, under a name unique to the test.
func Keep(t testing.TB, name string, data []byte) {
	t.Helper()
	dir := os.Getenv(EnvOut)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	safe := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	path := filepath.Join(dir, fmt.Sprintf("%s-%d-%s", safe, kept.Add(1), name))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ValidateDir checks every document of dir with the kit in one call and
// fails the test with every failed rule. Without the tools, it skips,
// naming the package.
func ValidateDir(t testing.TB, dir string) {
	t.Helper()
	if ok, pkg := Available(); !ok {
		t.Skipf("the Factur-X validation kit needs %s (apt-get install it; .ci/run does)", pkg)
	}
	cmd := exec.Command("bash", Script(), dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("Factur-X validation failed: %v\n%s", err, out.String())
	}
}

// ValidateBytes writes documents (name → content, .xml or .pdf) to a
// temporary directory and validates them in one call.
func ValidateBytes(t testing.TB, docs map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ValidateDir(t, dir)
}
