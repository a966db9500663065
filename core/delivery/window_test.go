package delivery_test

import (
	"strings"
	"testing"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
)

func date(t testing.TB, s string) calendar.Date {
	t.Helper()
	d, ok := calendar.ParseDate(s)
	if !ok {
		t.Fatalf("bad date %q", s)
	}
	return d
}

// TestClaimDeadline: a delivery may be claimed until the end of the second
// working day after its date — Monday to Friday, public holidays excepted
// (PRODUCT §16 "Claims", the Interfel agreement's two working days).
func TestClaimDeadline(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ delivery, deadline, why string }{
		{"2026-11-16", "2026-11-18", "Monday: Tuesday, Wednesday"},
		{"2026-11-17", "2026-11-19", "Tuesday: Wednesday, Thursday"},
		{"2026-11-18", "2026-11-20", "Wednesday: Thursday, Friday"},
		{"2026-11-19", "2026-11-23", "Thursday: Friday, Monday"},
		{"2026-11-20", "2026-11-24", "Friday: Monday, Tuesday"},
		{"2026-11-21", "2026-11-24", "Saturday: Monday, Tuesday"},
		{"2026-11-22", "2026-11-24", "Sunday: Monday, Tuesday"},
		{"2026-11-10", "2026-11-13", "Tuesday before 11 November: Thursday, Friday"},
		{"2026-11-27", "2026-12-01", "the last Friday of a month: into the next"},
		{"2026-12-24", "2026-12-29", "Christmas Eve, a Thursday: Monday 28, Tuesday 29"},
		{"2026-12-31", "2027-01-05", "New Year's Eve: Monday 4, Tuesday 5 January"},
		{"2027-05-05", "2027-05-10", "the eve of Ascension Day: Friday 7, Monday 10 (8 May a Saturday)"},
		{"2027-05-14", "2027-05-19", "the Friday before Whit Monday: Tuesday, Wednesday"},
	} {
		d := date(t, tt.delivery)
		got := delivery.ClaimDeadline(d)
		if got.String() != tt.deadline {
			t.Errorf("%s: deadline %s, want %s", tt.why, got, tt.deadline)
		}
		if g, ok := delivery.ClaimDeadlineOf(tt.delivery); !ok || g != got {
			t.Errorf("%s: ClaimDeadlineOf %s %v", tt.why, g, ok)
		}
	}
	if _, ok := delivery.ClaimDeadlineOf("2026-11-31"); ok {
		t.Error("a deadline for no date")
	}
	if got := delivery.ClaimClosedMessage(date(t, "2026-12-01")); got !=
		"Le délai de demande d'avoir est dépassé : elle était possible jusqu'au mardi 1er décembre 2026, deux jours ouvrés après la livraison." {
		t.Errorf("message %q", got)
	}
	var holidays []string
	for _, d := range delivery.WeekdayHolidays(date(t, "2026-01-01"), date(t, "2026-12-31")) {
		holidays = append(holidays, d.String())
	}
	// 2026: 15 August falls on a Saturday, 1 November on a Sunday.
	if got := strings.Join(holidays, " "); got != "2026-01-01 2026-04-06 2026-05-01 2026-05-08 2026-05-14 2026-05-25 2026-07-14 2026-11-11 2026-12-25" {
		t.Errorf("weekday holidays of 2026: %s", got)
	}
	for day, want := range map[string]bool{"2026-11-20": true, "2026-11-21": false, "2026-11-22": false, "2026-11-11": false,
		"2026-05-25": false, "2026-05-26": true, "2026-12-25": false} {
		if delivery.WorkingDay(date(t, day)) != want {
			t.Errorf("%s: working %v", day, !want)
		}
	}
}

// TestAcceptedBySilence: only a claim in the sole interest of the party
// that keeps silent may be accepted without its answer (art. 1120 C.
// civ.): a producer's that lowers the amount with no line raising it, a
// shop's (its reception) that raises it with no line lowering it.
func TestAcceptedBySilence(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		by      string
		claimed []decimal.Dec
		want    bool
	}{
		{"one line down", orders.ByProducer, []decimal.Dec{-300}, true},
		{"lines down and untouched", orders.ByProducer, []decimal.Dec{-300, 0, -1}, true},
		{"one line up", orders.ByProducer, []decimal.Dec{200}, false},
		{"up and down, net down", orders.ByProducer, []decimal.Dec{-1000, 1}, false},
		{"up and down, net up", orders.ByProducer, []decimal.Dec{-1, 1000}, false},
		{"nothing claimed", orders.ByProducer, []decimal.Dec{0, 0}, false},
		{"no line", orders.ByProducer, nil, false},
		{"the shop: a quantity short", orders.ByShop, []decimal.Dec{-300}, false},
		{"the shop: a quality refused and a line untouched", orders.ByShop, []decimal.Dec{0, -1}, false},
		{"the shop: more received than noted", orders.ByShop, []decimal.Dec{200, 0}, true},
		{"the shop: up and down", orders.ByShop, []decimal.Dec{200, -1}, false},
		{"the shop: nothing claimed", orders.ByShop, []decimal.Dec{0}, false},
	} {
		if got := delivery.AcceptedBySilence(tt.claimed, tt.by); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
