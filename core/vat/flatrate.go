package vat

// FlatRateOf is the rate of the agricultural flat-rate refund (art. 298
// quater I bis CGI) of a product of the catalogue, by its id, in
// hundredths of a percent: FlatRateLivestock for the products of its
// first list — milk, farmyard poultry and rabbits, eggs, meat animals
// (cattle, sheep, goats, pigs, horses), cereals, oilseeds and protein
// crops —, FlatRateOther for every other agricultural product. The
// catalogue holds fruit and vegetables only today (core/catalog): all of
// them are at FlatRateOther. A product of the first list joining the
// catalogue joins flatLivestock. The buyer's documents of the flat-rate
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

// flatLivestock are the catalogue's products at FlatRateLivestock, by id:
// none among today's fruit and vegetables.
var flatLivestock = map[string]bool{}
