package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/activity"
	"primeur/core/store"
)

// needWriter creates a shop's needs over HTTP, one request after the other,
// until stopped, and remembers the id of each need whose creation was
// answered 201: committed by then.
type needWriter struct {
	mu    sync.Mutex
	acked []string
	err   error
	grew  chan struct{} // closed and replaced at each answer
	stop  chan struct{}
	done  chan struct{}
}

// writeNeeds starts the writer on every product × month given.
func writeNeeds(c *client, products, months []string) *needWriter {
	w := &needWriter{grew: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			default:
			}
			if i == len(products)*len(months) {
				w.fail(fmt.Errorf("ran out of needs to create after %d", i))
				return
			}
			status, body, err := c.json("POST", "/api/needs", map[string]any{
				"product": products[i/len(months)], "date": months[i%len(months)], "quantity": 10,
			})
			var need struct {
				ID string `json:"_id"`
			}
			if err == nil && status == http.StatusCreated {
				err = json.Unmarshal(body, &need)
			}
			if err != nil || status != http.StatusCreated || need.ID == "" {
				w.fail(fmt.Errorf("create need %d: %d %s %v", i, status, body, err))
				return
			}
			w.mu.Lock()
			w.acked = append(w.acked, need.ID)
			close(w.grew)
			w.grew = make(chan struct{})
			w.mu.Unlock()
		}
	}()
	return w
}

func (w *needWriter) fail(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

// committed returns the ids answered so far.
func (w *needWriter) committed() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.acked...)
}

// waitFor waits until n needs are answered, failing if the writer stopped.
func (w *needWriter) waitFor(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(deadline)
	for {
		w.mu.Lock()
		got, grew := len(w.acked), w.grew
		w.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-grew:
		case <-w.done:
			t.Fatalf("the writer stopped after %d needs: %v", got, w.err)
		case <-timeout:
			t.Fatalf("only %d needs of %d after %v", got, n, deadline)
		}
	}
}

// end stops the writer and fails the test if it had failed.
func (w *needWriter) end(t *testing.T) {
	t.Helper()
	close(w.stop)
	<-w.done
	if w.err != nil {
		t.Fatal(w.err)
	}
}

// snapshotIsConsistent checks a SQLite file read-only: the integrity check
// passes, and the shop's needs and need:create events, written together
// by each creation's transaction, match one for one — a copy taken midway
// through a transaction would break that. It returns the shop's need ids.
func snapshotIsConsistent(t *testing.T, path, shopID string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	var ids []string
	if err := store.Select(ctx, db, &ids, `SELECT id FROM needs WHERE distributor_id = ?`, shopID); err != nil {
		t.Fatal(err)
	}
	events := count(t, db, `SELECT COUNT(*) FROM events WHERE origin_id = ? AND type = ?`, shopID, activity.NeedCreate)
	if events != len(ids) {
		t.Fatalf("%s: %d needs but %d need:create events", path, len(ids), events)
	}
	set := map[string]bool{}
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// TestBackupOfABusyDaemonRestoresEveryCommittedRow backs up the SQLite
// database of a real daemon while a shop creates needs over HTTP in a loop
// (`primeur backup FILE`, a separate process), then restores the backup
// into a new data directory (`primeur restore FILE`) and starts a daemon
// on it. Every need whose creation was answered before the backup started
// is in the backup and served by the restored daemon; the backup passes
// SQLite's integrity check and holds whole transactions only (needs and
// their events match). A restore into the data directory the running
// daemon holds is refused and changes nothing, and the daemon keeps
// serving throughout.
func TestBackupOfABusyDaemonRestoresEveryCommittedRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const now = "2026-11-20T10:00:00+01:00"
	b, db := newBase(t, "sqlite")
	busy, url := serve(t, "daemon", b, now)
	shop := register(t, url, "magasin@sauvegarde.fr", true)
	var shopID string
	if err := store.Get(ctx, db, &shopID, `SELECT id FROM users WHERE email = ?`, "magasin@sauvegarde.fr"); err != nil {
		t.Fatal(err)
	}
	var products []string
	if err := store.Select(ctx, db, &products, `SELECT id FROM products ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	var months []string
	for m := range 12 {
		months = append(months, time.Date(2026, time.Month(12+m), 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02"))
	}

	w := writeNeeds(shop, products, months)
	w.waitFor(t, 20)
	before := w.committed()
	file := filepath.Join(t.TempDir(), "sauvegarde.db")
	backup := start(t, "backup", "backup", file, "--data-dir", b.dir)
	if code := backup.wait(); code != 0 {
		t.Fatalf("backup exited %d", code)
	}
	backup.waitLine("the report", 0, func(l string) bool { return strings.HasPrefix(l, "sauvegarde écrite : "+file) })
	during := len(w.committed()) - len(before)
	// The daemon goes on serving after the backup.
	w.waitFor(t, len(before)+during+1)

	// A restore into the data directory the daemon holds is refused.
	refused := start(t, "restore-busy", "restore", file, "--force", "--data-dir", b.dir)
	if code := refused.wait(); code != 1 {
		t.Fatalf("restore under a running daemon exited %d", code)
	}
	refused.waitLine("the refusal", 0, func(l string) bool { return strings.Contains(l, "arrêtez-les avant de restaurer") })
	w.end(t)
	all := w.committed()
	t.Logf("%d needs answered before the backup started, %d while it ran, %d in all", len(before), during, len(all))
	if got := count(t, db, `SELECT COUNT(*) FROM needs WHERE distributor_id = ?`, shopID); got != len(all) {
		t.Fatalf("the daemon's database holds %d needs, %d were answered", got, len(all))
	}
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), "restauration") || strings.HasPrefix(e.Name(), ".primeur-") {
			t.Fatalf("the refused restore left %s", e.Name())
		}
	}

	inBackup := snapshotIsConsistent(t, file, shopID)
	for _, id := range before {
		if !inBackup[id] {
			t.Fatalf("need %s, answered before the backup started, is not in it", id)
		}
	}
	if len(inBackup) > len(all) {
		t.Fatalf("the backup holds %d needs, only %d were created", len(inBackup), len(all))
	}

	// Restore into a new data directory and serve it.
	restored := base{name: "sqlite", dir: filepath.Join(t.TempDir(), "restauree")}
	rs := start(t, "restore", "restore", file, "--data-dir", restored.dir)
	if code := rs.wait(); code != 0 {
		t.Fatalf("restore exited %d", code)
	}
	again, url2 := serve(t, "restored", restored, now)
	status, body, err := login(t, url2, "magasin@sauvegarde.fr").json("GET", "/api/needs", nil)
	if err != nil || status != http.StatusOK {
		t.Fatalf("needs of the restored daemon: %d %s %v", status, body, err)
	}
	var served []struct {
		ID string `json:"_id"`
	}
	if err := json.Unmarshal(body, &served); err != nil {
		t.Fatal(err)
	}
	servedIDs := map[string]bool{}
	for _, n := range served {
		servedIDs[n.ID] = true
	}
	for _, id := range before {
		if !servedIDs[id] {
			t.Fatalf("need %s, answered before the backup started, is not served after the restore", id)
		}
	}
	if len(servedIDs) != len(inBackup) {
		t.Fatalf("the restored daemon serves %d needs, the backup holds %d", len(servedIDs), len(inBackup))
	}
	if code := again.term(); code != 0 {
		t.Fatalf("restored daemon exited %d", code)
	}
	if code := busy.term(); code != 0 {
		t.Fatalf("daemon exited %d", code)
	}
	snapshotIsConsistent(t, filepath.Join(restored.dir, "primeur.db"), shopID)
}
