// Package planningtest builds real .xlsx files with excelize for the tests
// and benchmarks of the Excel import, and holds the generator of the
// fixtures committed under testdata/xlsx (see Fixtures; the planning tests
// regenerate them with `go test ./core/planning -run TestFixtures -update`).
package planningtest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Date is a header cell holding a real Excel date (the first of month),
// shown as "12/2026".
type Date time.Time

// Month returns the Date of a "2026-12" month.
func Month(s string) Date {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		panic(err)
	}
	return Date(t)
}

// Workbook returns an .xlsx whose first sheet ("Besoins") holds rows, from
// A1. A cell may be a string, a number, a Date, or nil for an empty cell.
func Workbook(rows [][]any) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Besoins"); err != nil {
		return nil, err
	}
	format := "mm/yyyy"
	dateStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return nil, err
	}
	sw, err := f.NewStreamWriter("Besoins")
	if err != nil {
		return nil, err
	}
	for i, row := range rows {
		values := make([]any, len(row))
		for j, v := range row {
			if d, ok := v.(Date); ok {
				v = excelize.Cell{StyleID: dateStyle, Value: time.Time(d)}
			}
			values[j] = v
		}
		if err := sw.SetRow(fmt.Sprintf("A%d", i+1), values); err != nil {
			return nil, err
		}
	}
	if err := sw.Flush(); err != nil {
		return nil, err
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Months returns n consecutive months from first ("2027-01") as header
// date cells, and their "2027-01-01" forms.
func Months(first string, n int) ([]any, []string) {
	start := time.Time(Month(first))
	cells, names := make([]any, n), make([]string, n)
	for i := range n {
		t := start.AddDate(0, i, 0)
		cells[i], names[i] = Date(t), t.Format("2006-01")+"-01"
	}
	return cells, names
}

// Header returns the header row: "Produit" then the month cells.
func Header(months []any) []any {
	return append([]any{"Produit"}, months...)
}

// Synthetic returns the name of the i-th synthetic product that the
// large-file tests and benchmarks add to the catalogue.
func Synthetic(i int) string { return fmt.Sprintf("Produit synthétique %05d", i) }

// Large returns a sheet of n synthetic products over months from first,
// with quantities i+month+0.25 kg.
func Large(n int, first string, months int) [][]any {
	cells, _ := Months(first, months)
	rows := [][]any{Header(cells)}
	for i := 1; i <= n; i++ {
		row := []any{Synthetic(i)}
		for m := range months {
			row = append(row, float64(i%500+m)+0.25)
		}
		rows = append(rows, row)
	}
	return rows
}

// Rezip rewrites a zip archive through fn, which gets each entry's header
// and content and writes what it wants to the new archive.
func Rezip(data []byte, fn func(w *zip.Writer, h *zip.FileHeader, content []byte) error, extra func(w *zip.Writer) error) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			return nil, err
		}
		content, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		h := e.FileHeader
		if err := fn(zw, &h, content); err != nil {
			return nil, err
		}
	}
	if extra != nil {
		if err := extra(zw); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// copyEntry writes an entry unchanged.
func copyEntry(w *zip.Writer, h *zip.FileHeader, content []byte) error {
	ew, err := w.CreateHeader(&zip.FileHeader{Name: h.Name, Method: zip.Deflate})
	if err != nil {
		return err
	}
	_, err = ew.Write(content)
	return err
}

// bombSize is how much the zip bombs inflate to: 200 MiB of spaces inside
// the worksheet, which deflate to about 200 KB.
const bombSize = 200 << 20

// writeBombSheet writes the worksheet padded with bombSize spaces (valid
// XML whitespace) before its data.
func writeBombSheet(w io.Writer, content []byte) error {
	head, tail, ok := bytes.Cut(content, []byte("<sheetData>"))
	if !ok {
		return fmt.Errorf("planningtest: no sheetData")
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range bombSize >> 20 {
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	if _, err := w.Write([]byte("<sheetData>")); err != nil {
		return err
	}
	_, err := w.Write(tail)
	return err
}

// isSheet reports whether a zip entry is the first worksheet.
func isSheet(h *zip.FileHeader) bool {
	return strings.EqualFold(h.Name, "xl/worksheets/sheet1.xml")
}

// HeavyStrings returns good.xlsx's sheet in a workbook whose shared
// strings part holds about size bytes of XML: the real strings of the
// sheet (written as shared strings, as Excel does), then as many unique
// unused ones as it takes. It deflates about eight to one, so a 15 MB
// part fits a 2 MB upload, within every limit of the import: the file
// that costs the most memory and time to read that an upload may be.
func HeavyStrings(size int) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	for i, row := range goodRows() {
		for j, v := range row {
			if v == nil {
				continue
			}
			cell, err := excelize.CoordinatesToCellName(j+1, i+1)
			if err != nil {
				return nil, err
			}
			if d, ok := v.(Date); ok {
				v = time.Time(d).Format("2006-01")
			}
			if err := f.SetCellValue("Sheet1", cell, v); err != nil {
				return nil, err
			}
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return Rezip(buf.Bytes(), func(w *zip.Writer, h *zip.FileHeader, content []byte) error {
		if !strings.EqualFold(h.Name, "xl/sharedStrings.xml") {
			return copyEntry(w, h, content)
		}
		end := bytes.LastIndex(content, []byte("</sst>"))
		if end < 0 {
			return fmt.Errorf("planningtest: no </sst>")
		}
		padded := bytes.NewBuffer(make([]byte, 0, size+1024))
		padded.Write(content[:end])
		words := []string{"pomme", "poire", "carotte", "navet", "chou", "radis", "blette", "courge"}
		for i := 0; padded.Len() < size; i++ {
			fmt.Fprintf(padded, "<si><t>Lot %09d %s %s %s</t></si>", i*7919%1_000_000_007,
				words[i%8], words[(i/8)%8], words[(i/64)%8])
		}
		padded.Write(content[end:])
		return copyEntry(w, h, padded.Bytes())
	}, nil)
}
