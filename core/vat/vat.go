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
