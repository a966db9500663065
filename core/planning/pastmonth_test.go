package planning_test

import (
	"context"
	"testing"
	"time"

	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestPastMonthAtTheTurnOfTheMonth: one rule (isPast) says when a month is
// past, for each write path — a need created one by one and a cell of an
// import (Write) — and it turns at midnight in the business time zone, not
// in UTC: at 23:59 on 30 November in Paris (22:59 UTC) November can still
// be planned; at 00:00 on 1 December (23:00 UTC, still November there) it
// is past. Both engines.
func TestPastMonthAtTheTurnOfTheMonth(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)
		for _, c := range []struct {
			at   time.Time
			past bool
		}{
			{time.Date(2026, 11, 30, 23, 59, 0, 0, paris), false},
			{time.Date(2026, 12, 1, 0, 0, 0, 0, paris), true},
		} {
			product := "carotte"
			if c.past {
				product = "poireau"
			}
			_, err := planning.Create(ctx, db, f.shop.ID, planning.NeedInput{ProductID: product, Date: "2026-11", Quantity: 4}, c.at)
			if got := refusalMessage(err) == planning.MsgPastMonth; got != c.past || (!c.past && err != nil) {
				t.Errorf("create at %s: %v, past %v", c.at, err, c.past)
			}
			res, err := planning.Write(ctx, db, f.shop.ID, []planning.Cell{{ProductID: "tomate", Month: "2026-11-01", Quantity: decimal.Dec(700 + len(product))}}, c.at)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Refused) == 1 && res.Refused[0].Message == planning.MsgPastMonth; got != c.past {
				t.Errorf("write at %s: %+v, past %v", c.at, res, c.past)
			}
		}
	})
}
