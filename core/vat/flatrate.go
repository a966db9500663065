package vat

// FlatRateOf is the rate of the agricultural flat-rate refund (art. 298
// quater I bis CGI) of a product of the catalogue, by its id, in
// hundredths of a percent: FlatRateLivestock for the products of its
// first list — milk, farmyard poultry and rabbits, eggs, meat animals
// (cattle, sheep, goats, pigs, horses), cereals, oilseeds and protein
// crops —, FlatRateOther for every other agricultural product: every
// fruit and vegetable, meat cuts, cheeses. A product type of the first
// list added to the catalogue joins flatLivestock. The buyer's documents of the flat-rate
// refund (core/payments' purchase slips and yearly certificates) split
// what a shop paid by this one function.
func FlatRateOf(productID string) int64 {
	if flatLivestock[productID] {
		return FlatRateLivestock
	}
	return FlatRateOther
}

// FlatRates are the refund's rates, highest first: the order in which
// documents list them.
var FlatRates = []int64{FlatRateLivestock, FlatRateOther}

// flatLivestock are the catalogue's products at FlatRateLivestock, by id
// (migration 48's types): eggs, farmyard poultry, milk, rabbits, cereals
// and protein crops (dried peas, chickpeas, field beans); none among the
// fruit and vegetables. Meat cuts, cheeses and other processed products
// are at FlatRateOther.
var flatLivestock = map[string]bool{
	"lait-cru-entier": true, "lait-entier-pasteurise": true, "lait-demi-ecreme": true, "lait-ecreme": true,
	"lait-ribot": true, "lait-de-chevre": true, "lait-de-brebis": true, "lait-gelifie": true, "lapin-entier": true, "lapin-decoupe": true, "rable-de-lapin": true, "cuisse-de-lapin": true, "poulet-fermier-entier": true,
	"poulet-label-rouge-entier": true, "coquelet": true, "poule-a-bouillir": true, "poulet-fermier-au-kilo": true,
	"filet-de-poulet": true, "cuisse-de-poulet": true, "aile-de-poulet": true, "poulet-decoupe": true,
	"supreme-de-poulet": true, "pintade-fermiere": true, "canard-entier": true, "magret-de-canard": true,
	"cuisse-de-canard": true, "aiguillette-de-canard": true, "foie-gras-de-canard-cru": true,
	"foie-gras-de-canard-mi-cuit": true, "confit-de-canard": true, "rillettes-de-canard": true,
	"foie-gras-de-canard-entier-en-bocal": true, "dinde-fermiere": true, "escalope-de-dinde": true,
	"roti-de-dinde": true, "chapon": true, "poularde": true, "oie-fermiere": true, "caille": true, "pigeonneau": true, "oeufs-de-poule-plein-air": true, "oeufs-de-poule-bio": true, "oeufs-de-poule-gros-calibre": true,
	"oeufs-de-caille": true, "oeufs-de-cane": true, "oeuf-de-poule": true, "oeuf-d-oie": true, "ble": true,
	"epeautre": true, "petit-epeautre": true, "orge": true, "avoine": true, "sarrasin": true, "millet": true,
	"mais-grain": true, "pois-chiches": true, "pois-casses": true, "feves-seches": true,
}
