package delivery

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
)

// fuzzTarget is a delivery of the order of November 2026 dated date, with
// a line in kg and a line in pieces, as lockTarget would read it; done, 8
// of the 10 kg ordered and the 12 pieces ordered were sent.
func fuzzTarget(status, date string) target {
	kgSent, unSent := decimal.Dec(800), decimal.Dec(1200)
	t := target{
		order:    orders.Order{ID: "o", ProducerID: "farm", DistributorID: "shop", Month: "2026-11-01"},
		delivery: orders.Delivery{ID: "d", OrderID: "o", Status: status, Date: date, ClaimStatus: orders.ClaimVoid},
		lines: []line{
			{Line: orders.Line{ID: "l-kg", ProductID: "tomate", Price: 250, QuantityExpected: 1000}, Unit: "kg", Name: "Tomate"},
			{Line: orders.Line{ID: "l-un", ProductID: "salade", Price: 90, QuantityExpected: 1200}, Unit: "un", Name: "Salade"},
		},
	}
	if status == orders.Done {
		t.lines[0].QuantitySent, t.lines[1].QuantitySent = &kgSent, &unSent
	}
	return t
}

// fuzzLineID picks a line id: the two lines of fuzzTarget, an unknown one,
// or none.
func fuzzLineID(b uint8) string { return []string{"l-kg", "l-un", "l-autre", ""}[b%4] }

// fieldMessages checks that err is a validation error whose every field
// message is one of allowed.
func fieldMessages(t *testing.T, err error, allowed ...string) {
	t.Helper()
	var v *core.ValidationError
	if !errors.As(err, &v) || len(v.Fields) == 0 {
		t.Fatalf("not a validation error: %v", err)
	}
	for _, f := range v.Fields {
		if !slices.Contains(allowed, f.Message) {
			t.Fatalf("field %s: message %q", f.Field, f.Message)
		}
	}
}

// wantQuantity is what a valid quantity of unit must be stored as; ok is
// false when the rules refuse it (not finite, beyond a trillion, more than
// two decimals in the shortest text that reads back to it, not whole for
// pieces, negative when signed is false). It reads the decimals from that
// text itself rather than through core/decimal.
func wantQuantity(f float64, unit string, signed bool) (decimal.Dec, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) || (!signed && f < 0) || math.Abs(f) > 1e12 {
		return 0, false
	}
	text := strconv.FormatFloat(f, 'f', -1, 64)
	neg := strings.HasPrefix(text, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(text, "-"), ".")
	if len(frac) > 2 || (unit == "un" && frac != "") {
		return 0, false
	}
	n, err := strconv.ParseInt(whole+frac+"00"[len(frac):], 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	return decimal.Dec(n), true
}

// FuzzLockTime: a delivery dated on any date a person may type locks at
// delivery.lock on that very date in Paris, even on DST days, and is
// locked from that instant on (the dates themselves: calendar's
// FuzzParseDate).
func FuzzLockTime(f *testing.F) {
	for _, s := range []string{"2026-11-20", "2026-02-29", "2028-02-29", "2026-12-31", "2026-03-29", "2026-10-25",
		"2000-01-01", "2100-12-31", "0001-01-01", "2026-1-5", ""} {
		f.Add(s)
	}
	r := DefaultRules()
	f.Fuzz(func(t *testing.T, s string) {
		if _, ok := calendar.ParseDate(s); !ok {
			return
		}
		lock := r.LockTime(s)
		if r.Today(lock) != s || lock.In(r.Location).Hour() != 12 || lock.In(r.Location).Minute() != 0 ||
			!r.Locked(s, lock) || r.Locked(s, lock.Add(-time.Nanosecond)) {
			t.Fatalf("LockTime(%q) = %v", s, lock)
		}
	})
}

// FuzzDeliveryChange: the shop's change of a planned delivery (date, sent
// quantity per line) is refused with PRODUCT's messages, or accepted with a
// date that is real, after today and in the delivery's month, and sent
// quantities exactly as asked (two decimals for kg, whole pieces, never
// negative). A change that follows every rule is accepted.
func FuzzDeliveryChange(f *testing.F) {
	for _, c := range []struct {
		date         string
		withDate     bool
		id1, id2     uint8
		q1, q2       float64
		with1, with2 bool
	}{
		{"2026-11-27", true, 0, 1, 12.5, 3, true, true},
		{"2026-11-20", true, 0, 1, 0, 0, true, true},
		{"2026-12-01", true, 0, 0, 1, 2, true, true},
		{" 2026-11-30 ", true, 1, 2, 2.5, 1, true, true},
		{"", false, 0, 0, 1.005, -1, true, true},
		{"30/11/2026", true, 3, 1, math.Inf(1), math.NaN(), true, true},
		{"", false, 1, 0, 1e12, 0.01, true, false},
	} {
		f.Add(c.date, c.withDate, c.id1, c.q1, c.with1, c.id2, c.q2, c.with2)
	}
	r := DefaultRules()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, r.Location) // the delivery is on the 26th
	f.Fuzz(func(t *testing.T, date string, withDate bool, id1 uint8, q1 float64, with1 bool, id2 uint8, q2 float64, with2 bool) {
		tg := fuzzTarget(orders.Planned, "2026-11-26")
		var c Change
		if withDate {
			c.Date = &date
		}
		ls := []LineSent{{ID: fuzzLineID(id1)}, {ID: fuzzLineID(id2)}}
		if with1 {
			ls[0].QuantitySent = &q1
		}
		if with2 {
			ls[1].QuantitySent = &q2
		}
		c.Lines = ls
		gotDate, sent, err := r.validateChange(tg, c, now)

		// What the rules say.
		wantDate, valid := tg.delivery.Date, true
		if withDate {
			wantDate = strings.TrimSpace(date)
			_, ok := calendar.ParseDate(wantDate)
			valid = ok && wantDate > "2026-11-20" && calendar.MonthKey(wantDate) == "2026-11-01"
		}
		want := map[string]decimal.Dec{}
		for _, l := range ls {
			k := tg.lineIndex(l.ID)
			switch {
			case k < 0:
				valid = false
			case l.QuantitySent == nil:
			default:
				d, ok := wantQuantity(*l.QuantitySent, tg.lines[k].Unit, false)
				if _, dup := want[l.ID]; !ok || dup {
					valid = false
				}
				want[l.ID] = d
			}
		}

		if err != nil {
			fieldMessages(t, err, MsgDate, MsgUnknownLine, MsgDuplicate, MsgNegative, MsgWeight, MsgPieces)
			if valid {
				t.Fatalf("a valid change was refused: date %q, lines %v %v: %v", date, ls[0], ls[1], err)
			}
			return
		}
		if !valid {
			t.Fatalf("an invalid change was accepted: date %q → %q, sent %v", date, gotDate, sent)
		}
		if gotDate != wantDate {
			t.Fatalf("date %q accepted as %q", date, gotDate)
		}
		if len(sent) != len(want) {
			t.Fatalf("sent %v, want %v", sent, want)
		}
		for id, d := range want {
			if sent[id] != d || d < 0 {
				t.Fatalf("line %s: sent %v, want %v", id, sent[id], d)
			}
		}
	})
}

// FuzzClaim: the producer's claim on a done delivery (per line a signed
// quantity, a type, a comment) is refused with a known message, or
// accepted with, per line claimed: the quantity exactly as asked (two
// decimals at most in its shortest text), not 0, the line then billing
// between 0 and what was ordered (sent + claimed within [0, max(ordered,
// sent)]), whole for pieces; a type of quality or quantity; the comment
// trimmed, valid UTF-8 of at most 500 characters. A claim that follows
// every rule is accepted, and once applied, sending it again is seen as
// the same claim.
func FuzzClaim(f *testing.F) {
	for _, c := range []struct {
		id1, id2     uint8
		q1, q2       float64
		with1, with2 bool
		kind1, kind2 string
		note1, note2 string
	}{
		{0, 1, -3, 2, true, true, "quality", "quantity", "Abîmées", ""},
		{0, 1, -10, -12, true, true, "quantity", "quantity", "  tout manquait  ", "\u00a0"},
		{0, 1, -10.01, -13, true, true, "quality", "quality", "", ""},
		{0, 0, 1, 1, true, true, "quality", "quality", "", ""},
		{1, 2, 0.5, 1, true, true, "quality", "", "", ""},
		{0, 1, 0, 0, true, true, "", "", "", ""},
		{3, 1, 1, math.NaN(), true, true, "quality", "qualité", strings.Repeat("é", 501), "\xff"},
		{0, 1, 1e9, -1e-3, true, false, "QUALITY", "quantity", "", ""},
		{0, 1, -1, 0, true, true, "quality", "", strings.Repeat("é", 500), ""},
		{0, 1, -1, 0, true, true, "quality", "", strings.Repeat("é", 501), ""},
		{0, 1, 999999999, 1, true, true, "quantity", "quantity", "", ""},
		{0, 1, 2, -12, true, true, "quantity", "quality", "", ""},
		{0, 1, 2.01, -5000.004, true, true, "quantity", "quality", "", ""},
		{0, 1, -12345.675, 1e13, true, true, "quality", "quantity", "", ""},
	} {
		f.Add(c.id1, c.q1, c.with1, c.kind1, c.note1, c.id2, c.q2, c.with2, c.kind2, c.note2)
	}
	f.Fuzz(func(t *testing.T, id1 uint8, q1 float64, with1 bool, kind1, note1 string, id2 uint8, q2 float64, with2 bool, kind2, note2 string) {
		tg := fuzzTarget(orders.Done, "2026-11-18")
		ls := []LineClaim{{ID: fuzzLineID(id1), ClaimType: &kind1, ClaimComment: &note1}, {ID: fuzzLineID(id2), ClaimType: &kind2, ClaimComment: &note2}}
		if with1 {
			ls[0].QuantityClaimed = &q1
		}
		if with2 {
			ls[1].QuantityClaimed = &q2
		}
		got, err := validateClaim(tg, Claim{Lines: ls})

		// What the rules say.
		valid := true
		want := map[string]claimLine{}
		seen := map[string]bool{}
		for _, l := range ls {
			k := tg.lineIndex(l.ID)
			if k < 0 || seen[l.ID] {
				valid = false
				continue
			}
			seen[l.ID] = true
			if l.QuantityClaimed == nil {
				continue
			}
			d, ok := wantQuantity(*l.QuantityClaimed, tg.lines[k].Unit, true)
			switch {
			case !ok:
				valid = false
			case d == 0:
			default:
				note := strings.TrimSpace(*l.ClaimComment)
				billed, ceiling := tg.lines[k].Sent()+d, max(tg.lines[k].QuantityExpected, tg.lines[k].Sent())
				if billed < 0 || billed > ceiling || (*l.ClaimType != orders.ClaimQuality && *l.ClaimType != orders.ClaimQuantity) ||
					!utf8.ValidString(note) || utf8.RuneCountInString(note) > maxComment {
					valid = false
				}
				want[l.ID] = claimLine{qty: d, kind: *l.ClaimType, comment: note}
			}
		}
		if len(want) == 0 {
			valid = false
		}

		if err != nil {
			fieldMessages(t, err, MsgUnknownLine, MsgDuplicate, MsgNotNumber, MsgPieces, MsgClaimExceeds,
				MsgClaimType, MsgTooLong, MsgNoQuantity,
				"La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (10kg)",
				"La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (12un)")
			if valid {
				t.Fatalf("a valid claim was refused: %+v %+v: %v", ls[0], ls[1], err)
			}
			return
		}
		if !valid {
			t.Fatalf("an invalid claim was accepted: %+v", got)
		}
		if len(got) != len(want) {
			t.Fatalf("claims %+v, want %+v", got, want)
		}
		for id, w := range want {
			if got[id] != w {
				t.Fatalf("line %s: %+v, want %+v", id, got[id], w)
			}
		}
		// Applied to the lines, the same claim again changes nothing.
		for i, l := range tg.lines {
			cl := got[l.ID]
			tg.lines[i].QuantityClaimed, tg.lines[i].ClaimType, tg.lines[i].ClaimComment = cl.qty, cl.kind, cl.comment
		}
		if !sameClaim(tg, got) {
			t.Fatal("an applied claim is not seen as the same claim")
		}
	})
}
