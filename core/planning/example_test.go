package planning_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/catalog"
	"primeur/core/planning"
)

// openpyxlRows reads a workbook as openpyxl's read-only mode does (which
// trusts the sheets' <dimension>): per sheet, its name, max_row and the
// rows it actually iterates. The test is skipped without python3-openpyxl.
func openpyxlRows(t *testing.T, data []byte) string {
	t.Helper()
	python := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import openpyxl").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("python3-openpyxl is not installed")
	}
	path := filepath.Join(t.TempDir(), "f.xlsx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(python, "-c", `
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
for ws in wb.worksheets:
    rows = [r for r in ws.iter_rows(values_only=True) if any(v is not None for v in r)]
    print(ws.title, ws.max_row, len(rows), rows[0][0] if rows else None)
print(wb.properties.creator, wb.properties.created.year)
`, path).CombinedOutput()
	if err != nil {
		t.Fatalf("openpyxl: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestExampleFilesReadEverywhere: the example file and the product list
// open right in another program than the one that wrote them: every row is
// seen in read-only mode (a right <dimension>), the properties are
// Primeur's of today.
func TestExampleFilesReadEverywhere(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	example, err := planning.ExampleXLSX(ps, now)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := planning.ParseFile("exemple_import.xlsx", example, catalog.NewIndex(ps), planning.ParseOptions{})
	if err != nil || len(imp.Rows) != 10 || len(imp.Rows[0].Name) == 0 || imp.Found()[0] == "" || imp.Months[0] != "2026-12-01" {
		t.Fatalf("the example does not import as is: %v", err)
	}
	rows := fmt.Sprintf("Produits %d %d Produit", len(ps)+1, len(ps)+1)
	want := "Besoins 13 12 " + planning.ExampleInstructions + "\n" + rows + "\nPrimeur 2026"
	if got := openpyxlRows(t, example); got != want {
		t.Errorf("example as openpyxl reads it:\n%s\nwant\n%s", got, want)
	}
	list, err := planning.ProductsXLSX(ps, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := openpyxlRows(t, list); got != rows+"\nPrimeur 2026" {
		t.Errorf("products as openpyxl reads them:\n%s", got)
	}
}
