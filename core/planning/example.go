package planning

import (
	"fmt"
	"math"
	"time"

	"github.com/xuri/excelize/v2"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/printable"
)

// exampleProducts are the products of the example import file, a typical
// fruit-and-vegetable shelf.
var exampleProducts = []string{"pomme-de-terre", "tomate", "carotte", "pomme", "clementine", "courgette", "laitue", "melon", "chou-fleur", "poireau"}

// exampleTurnover is the corrected annual turnover the example's quantities
// are simulated from: a small shop's fruit and vegetables.
const exampleTurnover = 90000

// ExampleMonths is how many months the example file covers.
const ExampleMonths = 12

// ExampleInstructions is the first row of the example file: how to fill
// it, in the shop's words.
const ExampleInstructions = "Saisissez vos besoins par mois : une ligne par produit (son nom comme dans l'onglet Produits), " +
	"une colonne par mois, les quantités en kg ou en pièces selon le produit. Laissez vide un mois sans besoin. " +
	"Enregistrez-le au format .xlsx (Excel), .ods (LibreOffice) ou .csv, puis importez le fichier depuis la page Besoins."

// exampleHeaderRow is the row of the example's header (below the
// instructions and a blank row).
const exampleHeaderRow = 3

// ExampleXLSX makes the example import file (/public/other/exemple_import.xlsx,
// PRODUCT §14): a first row saying how to fill it, the header row, then a
// few catalogue products with the quantities the standard import would give
// a small shop, over the twelve months starting the month after now; a
// second sheet lists the catalogue with its units. It is importable as is.
// excelize leaves each sheet's <dimension> at "A1" unless told: it is set
// to the cells written, which openpyxl's read-only mode relies on
// (TestExampleFilesReadEverywhere).
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
	f, err := newWorkbook("Besoins", "Exemple de fichier de besoins", now)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const sheet = "Besoins"
	format := "mmm yyyy"
	dateStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &format, Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	headStyle, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	noteStyle, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Italic: true, Color: "444444"}})
	if err != nil {
		return nil, err
	}
	if err := f.SetCellStr(sheet, "A1", ExampleInstructions); err != nil {
		return nil, err
	}
	if err := f.SetCellStyle(sheet, "A1", "A1", noteStyle); err != nil {
		return nil, err
	}
	header := []any{"Produit"}
	for _, m := range months {
		header = append(header, m.Start(time.UTC))
	}
	first, _ := excelize.CoordinatesToCellName(1, exampleHeaderRow)
	if err := f.SetSheetRow(sheet, first, &header); err != nil {
		return nil, err
	}
	second, _ := excelize.CoordinatesToCellName(2, exampleHeaderRow)
	last, _ := excelize.CoordinatesToCellName(ExampleMonths+1, exampleHeaderRow)
	if err := f.SetCellStyle(sheet, second, last, dateStyle); err != nil {
		return nil, err
	}
	if err := f.SetCellStyle(sheet, first, first, headStyle); err != nil {
		return nil, err
	}
	lines := Standard(chosen, exampleTurnover, months)
	for i, line := range lines {
		row := []any{line.Product.Name}
		for _, q := range line.Quantities {
			whole := math.Round(q.Float()) // whole kg or pieces read better
			if whole <= 0 {
				row = append(row, nil)
				continue
			}
			row = append(row, whole)
		}
		if err := f.SetSheetRow(sheet, fmt.Sprintf("A%d", exampleHeaderRow+1+i), &row); err != nil {
			return nil, err
		}
	}
	if err := f.SetColWidth(sheet, "A", "A", 22); err != nil {
		return nil, err
	}
	if err := f.SetColWidth(sheet, "B", "M", 11); err != nil {
		return nil, err
	}
	end, _ := excelize.CoordinatesToCellName(ExampleMonths+1, exampleHeaderRow+len(lines))
	if err := f.SetSheetDimension(sheet, "A1:"+end); err != nil {
		return nil, err
	}
	if _, err := f.NewSheet(productsSheet); err != nil {
		return nil, err
	}
	if err := writeProducts(f, products); err != nil {
		return nil, err
	}
	return save(f)
}

// productsSheet is the sheet that lists the catalogue.
const productsSheet = "Produits"

// ProductsXLSX makes /public/other/produits.xlsx: the catalogue with each
// product's unit, one sheet, for shops that write their file from it.
func ProductsXLSX(products []catalog.Product, now time.Time) ([]byte, error) {
	f, err := newWorkbook(productsSheet, "Produits du catalogue Primeur", now)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := writeProducts(f, products); err != nil {
		return nil, err
	}
	return save(f)
}

// newWorkbook is a workbook whose first sheet is named sheet, with the
// properties of a file Primeur made at now.
func newWorkbook(sheet, title string, now time.Time) (*excelize.File, error) {
	f := excelize.NewFile()
	stamp := now.UTC().Format(time.RFC3339)
	err := f.SetSheetName("Sheet1", sheet)
	if err == nil {
		err = f.SetDocProps(&excelize.DocProperties{
			Creator: "Primeur", LastModifiedBy: "Primeur", Title: title, Language: "fr-FR",
			Created: stamp, Modified: stamp,
		})
	}
	if err == nil {
		err = f.SetAppProps(&excelize.AppProperties{Application: "Primeur", Company: "Primeur"})
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeProducts fills the products sheet: Produit and Unité (kg or pièce),
// a bold frozen header.
func writeProducts(f *excelize.File, products []catalog.Product) error {
	head, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	if err := f.SetSheetRow(productsSheet, "A1", &[]any{"Produit", "Unité"}); err != nil {
		return err
	}
	if err := f.SetCellStyle(productsSheet, "A1", "B1", head); err != nil {
		return err
	}
	for i, p := range products {
		unit := catalog.UnitLabel(p.Unit)
		if err := f.SetSheetRow(productsSheet, fmt.Sprintf("A%d", i+2), &[]any{printable.Line(p.Name), unit}); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(productsSheet, "A", "A", 26); err != nil {
		return err
	}
	if err := f.SetPanes(productsSheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	return f.SetSheetDimension(productsSheet, fmt.Sprintf("A1:B%d", len(products)+1))
}

func save(f *excelize.File) ([]byte, error) {
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
