package documents_test

import (
	"testing"

	"primeur/core/dayplan"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
)

// TestDaySheetsShowTheShopsNotes: the shop's opening hours on its stop of
// the round and, with its delivery instructions, on its packing sheet
// (issue 40); its lines broken by the shop read as one line.
func TestDaySheetsShowTheShopsNotes(t *testing.T) {
	day := dayplan.Day{Date: "2026-11-24", Producer: "Ferme des Aravis", Pick: []dayplan.PickItem{{Product: "tomate", Name: "Tomate", Unit: "kg", Total: 1000,
		Shops: []dayplan.PickShop{{ShopID: "s", Shop: "Épicerie du Lac", Quantity: 1000}}}},
		Packing: []dayplan.Packing{{ShopID: "s", Shop: "Épicerie du Lac", Address: []string{"3 quai de la Tournette", "74000 Annecy"},
			Instructions: "Livrer par la cour,\nsonner à la réserve", Hours: "Mardi à samedi, 7h30–11h",
			Notes: []dayplan.Note{{Number: "BL-000001"}},
			Lines: []dayplan.Line{{Product: "tomate", Name: "Tomate", Unit: "kg", Quantity: 1000}}}},
		Round: dayplan.Round{Stops: []dayplan.Stop{{ShopID: "s", Shop: "Épicerie du Lac", Hours: "Mardi à samedi, 7h30–11h",
			Place: dayplan.Place{Address: []string{"74000 Annecy"}}}}, Complete: true, RoadFactor: 1.3},
	}
	pdf, err := documents.DaySheets(day, at(2026, 11, 23, 18, 0))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, pdftest.Lines(t, pdf), "Épicerie du Lac — 74000 Annecy — horaires : Mardi à samedi, 7h30–11h",
		"Horaires : Mardi à samedi, 7h30–11h", "Consignes : Livrer par la cour, sonner à la réserve")
}
