package supply

import (
	"errors"
	"testing"

	"primeur/core"
	"primeur/core/calendar"
)

// FuzzParseWindow: any query is refused with the French messages, or gives
// a window the projection accepts, starting on the date given.
func FuzzParseWindow(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"2026-11-16", "5"}, {"2026-02-29", "8"}, {"2028-02-29", "31"}, {"2026-11-16", "32"},
		{"16/11/2026", "5"}, {"2026-11-16", "-1"}, {"2026-11-16", "1e3"}, {"２０２６-11-16", "５"}, {"2100-12-31", "31"}} {
		f.Add(s[0], s[1])
	}
	today, _ := calendar.ParseDate("2026-11-20")
	f.Fuzz(func(t *testing.T, start, days string) {
		w, err := ParseWindow(start, days, today)
		if err != nil {
			var invalid *core.ValidationError
			if !errors.As(err, &invalid) {
				t.Fatalf("not a validation error: %v", err)
			}
			for _, fe := range invalid.Fields {
				if fe.Message != MsgBadStart && fe.Message != MsgBadDays {
					t.Fatalf("message %q", fe.Message)
				}
			}
			return
		}
		if w.valid() != nil {
			t.Fatalf("window %+v accepted but invalid", w)
		}
		if _, err := Project(Input{Window: w, Today: today}); err != nil {
			t.Fatalf("window %+v: %v", w, err)
		}
	})
}
