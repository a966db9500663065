package planning

import (
	"fmt"
	"math"
	"time"

	"github.com/xuri/excelize/v2"

	"primeur/core/calendar"
	"primeur/core/catalog"
)

// exampleProducts are the products of the example import file, a typical
// fruit-and-vegetable shelf.
var exampleProducts = []string{"pomme-de-terre", "tomate", "carotte", "pomme", "clementine", "courgette", "laitue", "melon", "chou-fleur", "poireau"}

// exampleTurnover is the corrected annual turnover the example's quantities
// are simulated from: a small shop's fruit and vegetables.
const exampleTurnover = 90000

// ExampleMonths is how many months the example file covers.
const ExampleMonths = 12

// ExampleXLSX makes the example import file (/public/other/exemple_import.xlsx,
// PRODUCT §14): the header row, then a few catalogue products with the
// quantities the standard import would give a small shop, over the twelve
// months starting the month after now. It is importable as is.
func ExampleXLSX(products []catalog.Product, now time.Time) ([]byte, error) {
	byID := map[string]catalog.Product{}
	for _, p := range products {
		byID[p.ID] = p
	}
	var chosen []catalog.Product
	for _, id := range exampleProducts {
		if p, ok := byID[id]; ok {
			chosen = append(chosen, p)
		}
	}
	months := make([]calendar.Month, ExampleMonths)
	for i := range months {
		months[i] = calendar.MonthOf(now).AddMonths(i + 1)
	}
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Besoins"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	format := "mm/yyyy"
	dateStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &format, Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	headStyle, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	header := []any{"Produit"}
	for _, m := range months {
		header = append(header, m.Start(time.UTC))
	}
	if err := f.SetSheetRow(sheet, "A1", &header); err != nil {
		return nil, err
	}
	last, _ := excelize.CoordinatesToCellName(ExampleMonths+1, 1)
	if err := f.SetCellStyle(sheet, "B1", last, dateStyle); err != nil {
		return nil, err
	}
	if err := f.SetCellStyle(sheet, "A1", "A1", headStyle); err != nil {
		return nil, err
	}
	for i, line := range Standard(chosen, exampleTurnover, months) {
		row := []any{line.Product.Name}
		for _, q := range line.Quantities {
			whole := math.Round(q.Float()) // whole kg or pieces read better
			if whole <= 0 {
				row = append(row, nil)
				continue
			}
			row = append(row, whole)
		}
		if err := f.SetSheetRow(sheet, fmt.Sprintf("A%d", i+2), &row); err != nil {
			return nil, err
		}
	}
	if err := f.SetColWidth(sheet, "A", "A", 22); err != nil {
		return nil, err
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
