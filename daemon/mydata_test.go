package daemon_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// TestMyData: each party downloads its personal data — its account, needs,
// orders, activity, payments as JSON and its invoices as PDF — and nothing
// of another's.
func TestMyData(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		read := func(body []byte) map[string][]byte {
			t.Helper()
			z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
			if err != nil {
				t.Fatalf("not a zip: %v", err)
			}
			files := map[string][]byte{}
			for _, f := range z.File {
				r, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				files[f.Name], _ = io.ReadAll(r)
				r.Close()
			}
			return files
		}
		res := dw.shop.Do("GET", "/print/mydata", nil).Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/zip" ||
			res.Header.Get("Content-Disposition") != `attachment; filename="primeur-mes-donnees-2026-12-03.zip"` {
			t.Fatalf("headers %v", res.Header)
		}
		shop := read(res.Body)
		var names []string
		for n := range shop {
			names = append(names, n)
		}
		slices.Sort(names)
		want := []string{"LISEZMOI.txt", "activite.json", "besoins.json", "commandes.json", "compte.json",
			"documents/FA-2026-000001.pdf", "paiements.json", "personne.json"}
		if !slices.Equal(names, want) {
			t.Fatalf("files %v, want %v", names, want)
		}
		var account struct {
			Email string `json:"email"`
			Name  string `json:"name"`
		}
		if err := json.Unmarshal(shop["compte.json"], &account); err != nil || account.Name != "Épicerie du Lac" {
			t.Fatalf("compte.json %s (%v)", shop["compte.json"], err)
		}
		var needs, orders, feed []map[string]any
		for name, v := range map[string]*[]map[string]any{"besoins.json": &needs, "commandes.json": &orders, "activite.json": &feed} {
			if err := json.Unmarshal(shop[name], v); err != nil || len(*v) == 0 {
				t.Fatalf("%s: %d items (%v)", name, len(*v), err)
			}
		}
		if !bytes.HasPrefix(shop["documents/FA-2026-000001.pdf"], []byte("%PDF-")) {
			t.Fatal("the invoice is not a PDF")
		}
		if !strings.Contains(string(shop["paiements.json"]), "FA-2026-000001") {
			t.Fatalf("paiements.json %s", shop["paiements.json"])
		}

		farm := read(dw.farm.Do("GET", "/print/mydata", nil).Expect(t, 200).Body)
		if _, ok := farm["documents/FA-2026-000001.pdf"]; !ok || !strings.Contains(string(farm["compte.json"]), "Ferme des Aravis") {
			t.Fatalf("the producer's export: %v", farm["compte.json"])
		}
		// A stranger's export holds none of it.
		other := read(dw.otherShop.Do("GET", "/print/mydata", nil).Expect(t, 200).Body)
		if len(other) != 7 || strings.Contains(string(other["commandes.json"]), dw.order) ||
			strings.Contains(string(other["paiements.json"]), "FA-2026") {
			t.Fatalf("a stranger's export: %d files, orders %s", len(other), other["commandes.json"])
		}
		dw.s.Client().Do("GET", "/print/mydata", nil).Expect(t, 401)
	})
}

// TestExportGateIsEachDaemons: two daemons in one process (replicas in a
// test) each bound their own personal data exports: while one's gate is
// full, the other's export goes at once, through its own gate, and leaves
// the first's untouched. A gate shared by the process would make the
// second wait the gate's 10 seconds and answer 503.
func TestExportGateIsEachDaemons(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		busy, free := daemontest.New(t, db), daemontest.New(t, db)
		if busy.Daemon.Exporting() == free.Daemon.Exporting() {
			t.Fatal("the two daemons share one export gate")
		}
		started, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- busy.Daemon.Exporting().Do(context.Background(), func() error {
				close(started)
				<-release
				return nil
			})
		}()
		<-started
		c, _ := free.Register("ferme@example.fr", "Ferme des Aravis", false)
		res := c.Do("GET", "/print/mydata", nil)
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		res.Expect(t, 200)
		if s := free.Daemon.Exporting().Stats(); s.Done != 1 || s.Refused != 0 {
			t.Fatalf("the free daemon's gate: %+v, want one export done", s)
		}
		if s := busy.Daemon.Exporting().Stats(); s.Done != 1 || s.MostRunning != 1 || s.Refused != 0 {
			t.Fatalf("the busy daemon's gate: %+v, want its own export only", s)
		}
	})
}
