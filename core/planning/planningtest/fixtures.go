package planningtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"

	"github.com/xuri/excelize/v2"
)

// Fixture is a file of testdata/xlsx and how it is made.
type Fixture struct {
	Name  string
	Build func() ([]byte, error)
}

// GoodFirst is the first of the 12 months of good.xlsx (tests run with a
// clock in November 2026).
const GoodFirst = "2027-01"

// goodRows is the sheet of good.xlsx: catalogue products in various
// spellings, kg with decimals, pieces, empty cells, a blank row, and four
// products the first catalogue of 60 did not know — core/planning's tests
// keep that world —, Yuzu and Fruit du dragon unknown to the whole
// catalogue still (Kumquat and Physalis are in it since migration 48).
func goodRows() [][]any {
	months, _ := Months(GoodFirst, 12)
	return [][]any{
		Header(months),
		{"Tomate", 120.5, 130, nil, 150.25, 180, 200, 220, 210, 160, 120, 100, 90},
		{"Melon", 10, nil, nil, nil, 40, 80, 120, 110, 50, nil, nil, nil},
		{"Pomme de terre", 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300},
		{},
		{"Kumquat", 5, 5},
		{"Carotte", 80, 80, 75.5},
		{"Yuzu", 1},
		{"Physalis", nil, 2},
		{"Fruit du dragon", 3},
	}
}

// Fixtures lists every committed file, good and bad.
func Fixtures() []Fixture {
	return []Fixture{
		{"good.xlsx", func() ([]byte, error) { return Workbook(goodRows()) }},
		{"accents-case.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 3)
			return Workbook([][]any{
				Header(months),
				{"CHOU-FLEUR", 12, 14, 16},
				{"clementine", 40.5, 35, 20},
				{"  pomme   DE terre ", 100},
				{"Celeri rave", 7},
				{"ÉPINARD", 3.25},
			})
		}},
		{"month-forms.xlsx", func() ([]byte, error) {
			return Workbook([][]any{
				{"PRODUIT", Month("2027-01"), "2027-02", "03/2027", "4/2027", "2027-05-01"},
				{"Tomate", 1, 2, 3, 4, 5},
				{"Poireau", "12,5", "7.25", " 8 ", 1.5e1, 0},
			})
		}},
		{"reimport.xlsx", func() ([]byte, error) {
			// good.xlsx again with less tomato in January and February, where
			// the re-import test commits producers beforehand.
			rows := goodRows()
			rows[1] = []any{"Tomate", 50, 60, nil, 150.25, 180, 200, 220, 210, 160, 120, 100, 90}
			return Workbook(rows)
		}},
		{"large-10000.xlsx", func() ([]byte, error) { return Workbook(Large(10_000, GoodFirst, 12)) }},
		{"wrong-extension.txt", func() ([]byte, error) { return []byte("Produit;2027-01\nTomate;12\n"), nil }},
		{"not-a-zip.xlsx", func() ([]byte, error) { return []byte("Produit,2027-01\nTomate,12\n"), nil }},
		{"password.xlsx", password},
		{"empty-sheet.xlsx", func() ([]byte, error) { return Workbook(nil) }},
		{"no-header.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{append([]any{"Liste"}, months...), {"Tomate", 1, 2}})
		}},
		{"no-months.xlsx", func() ([]byte, error) { return Workbook([][]any{{"Produit"}, {"Tomate"}}) }},
		{"bad-month.xlsx", func() ([]byte, error) {
			return Workbook([][]any{{"Produit", "2027-01", "décembre"}, {"Tomate", 1, 2}})
		}},
		{"month-13.xlsx", func() ([]byte, error) {
			return Workbook([][]any{{"Produit", "13/2027"}, {"Tomate", 1}})
		}},
		{"duplicate-month.xlsx", func() ([]byte, error) {
			return Workbook([][]any{{"Produit", Month("2027-01"), "01/2027"}, {"Tomate", 1, 2}})
		}},
		{"text-quantity.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 3)
			return Workbook([][]any{Header(months), {"Tomate", 1, 2, 3}, {"Carotte", 4, 5, 6}, {"Poireau", "douze", 1, 1}})
		}},
		{"negative-quantity.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 3)
			return Workbook([][]any{Header(months), {"Tomate", 1, 2, 3}, {"Carotte", 4, -5, 6}})
		}},
		{"three-decimals.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{Header(months), {"Tomate", 1.125, 2}})
		}},
		{"half-melon.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{Header(months), {"Melon", 4, 2.5}})
		}},
		{"duplicate-product.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{Header(months), {"Tomate", 1, 2}, {"Carotte", 1, 1}, {"TOMATE ", 3, 4}})
		}},
		{"no-name.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{Header(months), {"Tomate", 1, 2}, {nil, 3, 4}})
		}},
		{"outside-columns.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 2)
			return Workbook([][]any{Header(months), {"Tomate", 1, 2, 3}})
		}},
		{"too-many-months.xlsx", func() ([]byte, error) {
			months, _ := Months(GoodFirst, 37)
			return Workbook([][]any{Header(months), {"Tomate", 1}})
		}},
		{"too-many-rows.xlsx", func() ([]byte, error) { return Workbook(Large(10_001, GoodFirst, 1)) }},
		{"too-many-entries.xlsx", func() ([]byte, error) {
			good, err := Workbook(goodRows())
			if err != nil {
				return nil, err
			}
			return Rezip(good, copyEntry, func(w *zip.Writer) error {
				for i := range 150 {
					ew, err := w.Create(fmt.Sprintf("customXml/item%d.xml", i))
					if err != nil {
						return err
					}
					if _, err := ew.Write([]byte("<a/>")); err != nil {
						return err
					}
				}
				return nil
			})
		}},
		{"zip-bomb.xlsx", func() ([]byte, error) { return bomb(false) }},
		{"zip-bomb-lying.xlsx", func() ([]byte, error) { return bomb(true) }},
	}
}

// password is good.xlsx encrypted with a password (an OLE compound file).
func password() ([]byte, error) {
	good, err := Workbook(goodRows())
	if err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(good))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out bytes.Buffer
	if err := f.Write(&out, excelize.Options{Password: "secret"}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// bomb is good.xlsx whose worksheet inflates to 200 MiB. The honest bomb
// declares that size in its zip directory; the lying one declares 4 KiB,
// so that only reading it reveals the size.
func bomb(lying bool) ([]byte, error) {
	good, err := Workbook(goodRows())
	if err != nil {
		return nil, err
	}
	return Rezip(good, func(w *zip.Writer, h *zip.FileHeader, content []byte) error {
		if !isSheet(h) {
			return copyEntry(w, h, content)
		}
		var compressed bytes.Buffer
		fw, err := flate.NewWriter(&compressed, flate.BestCompression)
		if err != nil {
			return err
		}
		crc := crc32.NewIEEE()
		var size uint64
		counter := writerFunc(func(p []byte) (int, error) {
			size += uint64(len(p))
			crc.Write(p)
			return fw.Write(p)
		})
		if err := writeBombSheet(counter, content); err != nil {
			return err
		}
		if err := fw.Close(); err != nil {
			return err
		}
		declared := size
		if lying {
			declared = 4 << 10
		}
		raw, err := w.CreateRaw(&zip.FileHeader{
			Name: h.Name, Method: zip.Deflate, CRC32: crc.Sum32(),
			CompressedSize64: uint64(compressed.Len()), UncompressedSize64: declared,
		})
		if err != nil {
			return err
		}
		_, err = raw.Write(compressed.Bytes())
		return err
	}, nil)
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
