package supplyui_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"primeur/commands/supplyui"
	"primeur/core/store/storetest"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// shop starts a daemon (Friday 2026-11-20 in Paris) with a shop whose
// tomatoes follow the hand-computed case of core/supply, and returns a
// client logged in as that shop.
func shop(t *testing.T) *supplyui.Client {
	t.Helper()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	_, shopID := s.Register("epicerie@example.fr", "Épicerie du Lac", true)
	_, saules := s.Producer("saules@example.fr", "Ferme des Saules")
	_, alpage := s.Producer("alpage@example.fr", "Alpage")
	w := tradetest.On(t, db)
	w.Need(shopID, "tomate", "2026-11-01", 25000)
	w.Need(shopID, "poireau", "2026-11-01", 4650)
	w.Deliver(saules, shopID, "2026-11-12", supply.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 3200, Sent: tradetest.Dec(3000)})
	w.Deliver(alpage, shopID, "2026-11-16", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2550})
	w.Deliver(saules, shopID, "2026-11-17", supply.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 10000})
	w.Deliver(saules, shopID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2000})
	w.Deliver(alpage, shopID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 525})

	c, err := supplyui.NewClient(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Login(context.Background(), "epicerie@example.fr", daemontest.Password); err != nil {
		t.Fatal(err)
	}
	return c
}

func waitFor(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		for _, w := range want {
			if !bytes.Contains(out, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func key(tm *teatest.TestModel, k tea.KeyType, times int) {
	for i := 0; i < times; i++ {
		tm.Send(tea.KeyMsg{Type: k})
	}
}

func TestViewer(t *testing.T) {
	c := shop(t)
	first, err := c.Supply(context.Background(), "", supply.DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, supplyui.New("Épicerie du Lac", c.Supply, first), teatest.WithInitialTermSize(80, 24))

	// 80×24: the current week from Monday, 5 days; today (Friday) selected.
	waitFor(t, tm, supplyui.Title, "Épicerie du Lac — du lundi 16 novembre 2026 au vendredi 20 novembre 2026",
		"lun 16/11", "ven 20/11", "Tomate (kg) *", "Poireau (kg)", ">0       ×<", " 15        ", "Entrée détail")

	// Two days back, then the detail of Wednesday the 18th: 6 kg in the
	// morning, 20 + 5,25 kg coming on Thursday, nothing to order.
	key(tm, tea.KeyLeft, 2)
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	waitFor(t, tm, ">6       !<")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Épicerie du Lac — Tomate (kg)", "mercredi 18 novembre 2026", "couverture partielle",
		supplyui.LabelOrder+" : 0 kg", supplyui.LabelMorningStock, "6 kg",
		supplyui.LabelNextDeliveries+" (jeu 19/11)", "25,25 kg", "Alpage", "5,25 kg", "Ferme des Saules", "20 kg",
		supplyui.LabelNeed, supplyui.LabelNextNeed, "10 kg", "Produit à risque")
	// The detail follows the selection: Tuesday proposes 4 kg.
	key(tm, tea.KeyLeft, 1)
	waitFor(t, tm, "mardi 17 novembre 2026", supplyui.LabelOrder+" : 4 kg")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "Entrée détail")

	// Past the right edge the window moves by one day.
	key(tm, tea.KeyRight, 4)
	waitFor(t, tm, "du mardi 17 novembre 2026 au samedi 21 novembre 2026", "sam 21/11")
	key(tm, tea.KeyRight, 3)
	waitFor(t, tm, "Aucune livraison n'est prévue entre le 20/11/2026 et le 24/11/2026", "flèches ← → pour changer de dates.")

	// t comes back to the current week; a wide terminal shows 8 days.
	tm.Type("t")
	waitFor(t, tm, "du lundi 16 novembre 2026 au vendredi 20 novembre 2026")
	tm.Send(tea.WindowSizeMsg{Width: 130, Height: 40})
	waitFor(t, tm, "du lundi 16 novembre 2026 au lundi 23 novembre 2026", "lun 23/11")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	m := tm.FinalModel(t).(supplyui.Model)
	product, day := m.Selected()
	if m.Start() != "2026-11-16" || m.Days() != 8 || product != "tomate" || day != "2026-11-20" || m.Detail() {
		t.Fatalf("final state: %s, %d days, %s %s, detail %v", m.Start(), m.Days(), product, day, m.Detail())
	}
}

func TestViewerNarrowAndErrors(t *testing.T) {
	c := shop(t)
	first, err := c.Supply(context.Background(), "", supply.DefaultDays)
	if err != nil {
		t.Fatal(err)
	}
	// 50 columns leave room for 2 days; 10 rows still show the selection.
	tm := teatest.NewTestModel(t, supplyui.New("Épicerie du Lac", c.Supply, first), teatest.WithInitialTermSize(50, 10))
	waitFor(t, tm, "mar 17/11", "×<") // the selection (Friday) came back to the last column
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if m := tm.FinalModel(t).(supplyui.Model); m.Days() != 2 {
		t.Fatalf("%d days at 50 columns", m.Days())
	}
	for _, line := range strings.Split(tm.FinalModel(t).View(), "\n") {
		if w := len([]rune(stripANSI(line))); w > 50 {
			t.Fatalf("line of %d columns at 50: %q", w, line)
		}
	}

	// Wrong logins and roles come back with the daemon's French message.
	if _, err := c.Login(context.Background(), "epicerie@example.fr", "mauvais1"); err == nil || !strings.Contains(err.Error(), "incorrects") {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := supplyui.NewClient("ftp://example.fr"); err == nil {
		t.Fatal("ftp accepted")
	}
	dead, _ := supplyui.NewClient("http://127.0.0.1:1")
	if _, err := dead.Supply(context.Background(), "", 5); err == nil || !strings.Contains(err.Error(), "ne répond pas") {
		t.Fatalf("dead server: %v", err)
	}
}

// stripANSI drops escape sequences.
func stripANSI(s string) string {
	var b strings.Builder
	esc := false
	for _, r := range s {
		switch {
		case r == 0x1b:
			esc = true
		case esc && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			esc = false
		case !esc:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestHostileNamesInTheTerminal: a producer, a product and a shop named
// with escape sequences (clear the screen, set the window's title), a bell,
// a line break, a bidirectional override, an emoji and wide characters are
// drawn as text: no control character reaches the terminal, and no line of
// the viewer is wider than the terminal.
func TestHostileNamesInTheTerminal(t *testing.T) {
	hostile := "\x1b[2J\x1b]0;pwned\x07Ferme 🥕 湖\r\nFin\u202e"
	const clean = "[2J]0;pwnedFerme 🥕 湖 Fin"
	p := supply.Projection{Start: "2026-11-16", End: "2026-11-16", Days: 1, Today: "2026-11-16", Dates: []string{"2026-11-16"},
		HasDeliveries: true, Producers: []supply.Producer{{ID: "p1", Name: hostile + strings.Repeat("湖", 40)}},
		Products: []supply.ProductProjection{{Product: "tomate", Name: hostile, Unit: "kg", Days: []supply.DayProjection{{
			Date: "2026-11-16", NextDate: "2026-11-17", Deliveries: []supply.Incoming{{Producer: "p1", Quantity: 100}}}}}},
	}
	fetch := func(context.Context, string, int) (supply.Projection, error) {
		return supply.Projection{}, errors.New("refusé\x1b[2J")
	}
	m := supplyui.New(hostile, fetch, p)
	detail, _ := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	var report bytes.Buffer
	if err := supplyui.WriteReport(&report, hostile, p); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"grid": m.View(), "detail": detail.View(), "report": report.String()} {
		for _, bad := range []string{"\x1b[2J", "\x1b]", "\x07", "\r", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s holds %q:\n%s", name, bad, out)
			}
		}
		if name == "report" {
			if strings.Contains(out, "\x1b") || !strings.Contains(out, clean+" — du lundi 16 novembre 2026") {
				t.Errorf("report:\n%s", out)
			}
			continue
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%s: a line of %d columns: %q", name, w, l)
			}
		}
	}
	if v := detail.View(); !strings.Contains(v, clean+" — "+clean+" (kg)") || !strings.Contains(v, "[2J]0;pwnedFerme 🥕 湖 Fin湖湖湖") {
		t.Errorf("detail:\n%s", v)
	}
	// An error's text is drawn the same way.
	next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRight})
	if cmd == nil {
		t.Fatal("no load")
	}
	next, _ = next.Update(cmd())
	if v := next.View(); strings.Contains(v, "\x1b[2J") || !strings.Contains(v, "refusé[2J") {
		t.Errorf("error:\n%s", v)
	}
}
