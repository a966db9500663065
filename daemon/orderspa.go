package daemon

import (
	"context"

	"primeur/core/orders"
	"primeur/core/pa"
	"primeur/core/store"
)

// withPA sets, on each invoice and credit note of the orders vs, where it
// stands on its producer's approved platform (PRODUCT §16): the deliveries
// screens show it beside the document's link, as the payments screen does
// under the document. A document not deposited has none. core/orders does
// not read core/pa's tables; this is the one place the two meet for the
// orders the API answers.
func withPA(ctx context.Context, q store.Q, vs []orders.View) error {
	var ids []string
	for _, v := range vs {
		if v.Invoice == nil {
			continue
		}
		ids = append(ids, v.Invoice.ID)
		for _, c := range v.Invoice.Credits {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sts, err := pa.StatusesOf(ctx, q, ids)
	if err != nil {
		return err
	}
	state := func(id string) *orders.PAState {
		st, ok := sts[id]
		if !ok || st.Status == "" {
			return nil
		}
		return &orders.PAState{Status: st.Status, Label: st.Label}
	}
	for i := range vs {
		inv := vs[i].Invoice
		if inv == nil {
			continue
		}
		inv.PA = state(inv.ID)
		for j := range inv.Credits {
			inv.Credits[j].PA = state(inv.Credits[j].ID)
		}
	}
	return nil
}
