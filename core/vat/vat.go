// Package vat holds the VAT regimes a producer sells under (PRODUCT §16
// "VAT regimes") and what each means for its documents:
//
//   - Normal: liable to VAT (régime simplifié agricole or réel), food at
//     5.5 % (art. 278-0 bis A CGI), with an intra-community VAT number.
//   - Franchise: the franchise en base of art. 293 B CGI, for a non-farm
//     micro-business: no VAT, the mention "TVA non applicable, art. 293 B
//     du CGI".
//   - Flat: a farmer not liable to VAT, by default under the agricultural
//     flat-rate refund (remboursement forfaitaire agricole, art. 298 bis
//     and 298 quater CGI): no VAT on the invoice; the buyer liable to VAT
//     hands the farmer a purchase slip at each payment and a yearly
//     certificate (CGI ann. II art. 265 and 266), on which the farmer
//     claims the refund from the State.
package vat

// Regimes.
const (
	Normal    = "normal"
	Franchise = "franchise"
	Flat      = "flat"
)

// FoodRate is the rate of food produce (art. 278-0 bis A CGI), in
// hundredths of a percent: 550 is 5.5 %.
const FoodRate = 550

// Regimes lists the regimes, as the profile offers them.
var Regimes = []string{Normal, Franchise, Flat}

// Valid reports whether r is a regime.
func Valid(r string) bool { return r == Normal || r == Franchise || r == Flat }

// Of is the regime of an account that chose none: Normal with a VAT
// number, else Flat — a farmer not liable to VAT is under the flat-rate
// refund by law (art. 298 bis CGI) unless it opted for VAT.
func Of(vatNumber string) string {
	if vatNumber != "" {
		return Normal
	}
	return Flat
}

// Rates of the flat-rate refund (art. 298 quater I bis CGI, sales from
// 1 January 2014), in hundredths of a percent, on the price paid by a
// buyer liable to VAT: 5.59 % for milk, poultry, eggs, meat animals,
// cereals, oilseeds and protein crops; 4.43 % for the other products —
// every fruit and vegetable of the catalogue.
const (
	FlatRateLivestock = 559
	FlatRateOther     = 443
)

// Mentions printed on a document of each regime, and what the Factur-X XML
// says of its VAT.
const (
	// FranchiseMention is the exact mention of the franchise en base.
	FranchiseMention = "TVA non applicable, art. 293 B du CGI"
	// FlatMention says why a farmer under the flat-rate refund charges no
	// VAT, and what its buyer owes it in return.
	FlatMention = "TVA non applicable : exploitant agricole placé sous le régime du remboursement forfaitaire " +
		"agricole (art. 298 bis et 298 quater du CGI). L'acheteur redevable de la TVA remet au producteur un " +
		"bulletin d'achat à chaque paiement et, au début de chaque année, l'attestation de ses achats de " +
		"l'année écoulée (art. 265 et 266 de l'annexe II au CGI)."
	// FlatReason is the exemption reason (BT-120) of the XML's category
	// O, not subject to VAT.
	FlatReason = "Non soumis à la TVA : exploitant agricole au remboursement forfaitaire (art. 298 bis du CGI)"
)

// Exempt reports whether a document of regime r charges no VAT.
func Exempt(r string) bool { return r != Normal }

// Mention is the VAT mention of a document of regime r: empty under the
// normal regime, whose VAT is on the page.
func Mention(r string) string {
	switch r {
	case Franchise:
		return FranchiseMention
	case Flat:
		return FlatMention
	}
	return ""
}
