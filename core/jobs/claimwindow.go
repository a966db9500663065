package jobs

import "primeur/core/delivery"

// claimUntil is the last day a claim may be sent on a delivery dated date
// ("YYYY-MM-DD"), as the delivery note's email says it: "vendredi
// 13 novembre 2026" (delivery.ClaimDeadline, PRODUCT §16 "Claims").
func claimUntil(date string) string {
	d, ok := delivery.ClaimDeadlineOf(date)
	if !ok {
		return date
	}
	return delivery.LongDay(d)
}
