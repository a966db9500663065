package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"primeur/core/calendar"
)

// FuzzParseAt: the times of `jobs run --at` and `serve --now` are refused
// with a message quoting them, or read as one instant that its RFC 3339
// form reads back to; an RFC 3339 time keeps its own offset, a local one
// is read in the business time zone; a clock started at an instant reads
// that instant at once.
func FuzzParseAt(f *testing.F) {
	for _, s := range []string{"2026-12-01T06:00:00+01:00", "2026-12-01T06:00:00Z", "2026-12-01T06:00", "2026-12-01 06:00",
		"2026-12-01T06:00:00", "2026-03-29T02:30", "2026-10-25T02:30", "2026-12-01", "demain", "", "2026-13-01T06:00",
		"2026-12-01T06:00:00.123456789+14:00", "0000-01-01T00:00:00Z"} {
		f.Add(s)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		f.Fatal(err)
	}
	clock := calendar.NewClock(nil, paris)
	real := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		at, err := parseAt(s, clock)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("--at « %s » : ", s)) {
				t.Fatalf("parseAt(%q): %v", s, err)
			}
			return
		}
		// RFC 3339 offsets are whole minutes: Paris before 1911 was 9 min
		// 21 s ahead of Greenwich (LMT), which no RFC 3339 text can say.
		back, err := parseAt(at.Format(time.RFC3339Nano), clock)
		if _, offset := at.Zone(); offset%60 == 0 && (err != nil || !back.Equal(at)) {
			t.Fatalf("parseAt(%q) = %v does not read back (%v, %v)", s, at, back, err)
		}
		if rfc, err := time.Parse(time.RFC3339, s); err == nil {
			if !rfc.Equal(at) {
				t.Fatalf("parseAt(%q) = %v, RFC 3339 says %v", s, at, rfc)
			}
			shifted, err := shiftedClock(s, func() time.Time { return real })
			if err != nil || !shifted().Equal(at) {
				t.Fatalf("--now %q starts at %v (%v)", s, shifted(), err)
			}
		} else if at.Location() != paris {
			t.Fatalf("local time %q read in %v", s, at.Location())
		}
	})
}
