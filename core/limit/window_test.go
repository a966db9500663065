package limit_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/limit"
)

// TestWindow: an account makes n calls per window, the next one is
// refused (throttled, with the window's message and the delay to its end)
// without being counted; another account is counted apart; a new window
// starts once the account's has ended.
func TestWindow(t *testing.T) {
	const msg = "Trop d'essais."
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	w := limit.NewWindow(3, 10*time.Minute, msg)
	steps := []struct {
		account string
		at      time.Duration // after t0
		after   time.Duration // the refusal's delay; 0 when let through
	}{
		{"a", 0, 0},
		{"a", time.Minute, 0},
		{"b", time.Minute, 0},
		{"a", 2 * time.Minute, 0},
		{"a", 3 * time.Minute, 7 * time.Minute},
		{"a", 9 * time.Minute, time.Minute},
		{"b", 9 * time.Minute, 0},
		{"a", 10 * time.Minute, 0}, // a new window
		{"a", 11 * time.Minute, 0},
	}
	for i, s := range steps {
		err := w.Take(s.account, t0.Add(s.at))
		after, refused := limit.RetryAfter(err)
		switch {
		case s.after == 0 && err != nil:
			t.Fatalf("step %d (%s at %v): refused: %v", i, s.account, s.at, err)
		case s.after != 0 && (!refused || after != s.after || !errors.Is(err, core.ErrThrottled) || err.Error() != msg):
			t.Fatalf("step %d (%s at %v): %v, after %v; want throttled after %v", i, s.account, s.at, err, after, s.after)
		}
	}
}

// TestWindowPrunes: the entries of accounts whose window has ended are
// dropped, so that many accounts, each seen once, hold no more memory
// than those of one window (checked through behaviour: an account seen
// long ago starts afresh).
func TestWindowPrunes(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	w := limit.NewWindow(1, time.Minute, "non")
	for i := range 1000 {
		if err := w.Take(fmt.Sprint("account-", i), t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Take("account-999", t0.Add(999*time.Second)); err == nil {
		t.Fatal("a second call in the window went through")
	}
	if err := w.Take("account-0", t0.Add(999*time.Second)); err != nil {
		t.Fatalf("an account whose window ended long ago: %v", err)
	}
}
