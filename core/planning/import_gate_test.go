package planning_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/limit"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestImportsParseAFewAtATime: imports of several shops sent together all
// succeed, their files parsed no more at once than Parsing allows.
func TestImportsParseAFewAtATime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const n = 6
		shops := make([]string, n)
		for i := range shops {
			u, err := accounts.Register(context.Background(), db, accounts.Registration{
				Email: fmt.Sprintf("shop%d@x.fr", i), Password: "motdepasse1", Name: "Épicerie", Distributor: true,
			}, now)
			if err != nil {
				t.Fatal(err)
			}
			shops[i] = u.ID
		}
		data := xlsxFile(t, "good.xlsx")
		before := planning.Parsing.Stats()
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if p := recover(); p != nil {
						errs[i] = fmt.Errorf("panic: %v", p)
					}
				}()
				<-start
				_, errs[i] = planning.ImportXLSX(context.Background(), db, shops[i], "good.xlsx", data, now,
					planning.ImportOptions{DryRun: true})
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("import %d: %v", i, err)
			}
		}
		after := planning.Parsing.Stats()
		if after.Done-before.Done != n || after.MostRunning > int64(after.Size) || after.Size < 1 {
			t.Fatalf("parsing stats %+v after %+v: want %d more parses, at most %d at once", after, before, n, after.Size)
		}
	})
}

// fillParsing takes every place of Parsing with held work of other
// accounts until the returned function is called.
func fillParsing(t *testing.T) (release func()) {
	t.Helper()
	started, stop := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	for i := range planning.Parsing.Size() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			_ = planning.Parsing.Do(context.Background(), fmt.Sprintf("filler-%d", i), func() error {
				started <- struct{}{}
				<-stop
				return nil
			})
		}()
	}
	for range planning.Parsing.Size() {
		<-started
	}
	return func() { close(stop); wg.Wait() }
}

// importing is an ImportXLSX running in its own goroutine.
type importing struct {
	done chan error
}

// startImport starts the shop's import (or preview) and returns once it
// waits for its turn in Parsing, every place of which must be taken.
func startImport(t *testing.T, ctx context.Context, db *store.DB, shopID string, opts planning.ImportOptions) importing {
	t.Helper()
	waiting := planning.Parsing.Stats().Waiting
	im := importing{done: make(chan error, 1)}
	data := xlsxFile(t, "good.xlsx")
	go func() {
		defer func() {
			if p := recover(); p != nil {
				im.done <- fmt.Errorf("panic: %v", p)
			}
		}()
		_, err := planning.ImportXLSX(ctx, db, shopID, "good.xlsx", data, now, opts)
		im.done <- err
	}()
	for planning.Parsing.Stats().Waiting == waiting { // until the import waits for its turn
		select {
		case err := <-im.done:
			t.Fatalf("the import ended before waiting for its turn: %v", err)
		default:
			time.Sleep(50 * time.Microsecond) // poll the gate's counter; nothing is timed
		}
	}
	return im
}

// TestImportGivesUpWaitingForItsTurn: an import whose request ends while
// every place is taken is not parsed and changes nothing, and gives its
// shop's turn back: the shop's next import is let in.
func TestImportGivesUpWaitingForItsTurn(t *testing.T) {
	db := storetest.SQLite(t)
	f := setup(t, db)
	release := fillParsing(t)
	before := storetest.Snapshot(t, db)
	parsed := planning.Parsing.Stats().Done
	ctx, cancel := context.WithCancel(context.Background())
	gone := startImport(t, ctx, db, f.shop.ID, planning.ImportOptions{})
	cancel()
	err := <-gone.done
	if !errors.Is(err, context.Canceled) {
		release()
		t.Fatalf("err = %v, want the request's end", err)
	}
	if planning.Parsing.Stats().Done != parsed || storetest.Snapshot(t, db) != before {
		release()
		t.Fatal("a refused import was parsed or wrote")
	}
	next := startImport(t, context.Background(), db, f.shop.ID, planning.ImportOptions{})
	release()
	if err := <-next.done; err != nil {
		t.Fatalf("the shop's next import: %v", err)
	}
}

// TestAShopImportsOneFileAtATime: while a shop's import waits for its
// turn, its other imports and previews are refused at once — 429's kind,
// MsgImportOneAtATime, a delay to come back after — unparsed and
// writing nothing, while another shop's import is let in; both imports
// let in then succeed.
func TestAShopImportsOneFileAtATime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		release := fillParsing(t)
		defer func() {
			if release != nil {
				release()
			}
		}()
		first := startImport(t, context.Background(), db, f.shop.ID, planning.ImportOptions{})
		before := storetest.Snapshot(t, db)
		parsed := planning.Parsing.Stats()
		for _, tt := range []struct {
			name string
			opts planning.ImportOptions
		}{
			{"import", planning.ImportOptions{}},
			{"preview", planning.ImportOptions{DryRun: true}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := planning.ImportXLSX(context.Background(), db, f.shop.ID, "good.xlsx", xlsxFile(t, "good.xlsx"), now, tt.opts)
				after, later := limit.RetryAfter(err)
				if !errors.Is(err, core.ErrThrottled) || refusalMessage(err) != planning.MsgImportOneAtATime || !later ||
					after < planning.ParseRetry || after > planning.ParseRetry+planning.ParseWait {
					t.Fatalf("err = %v (retry after %v, %v), want the one-at-a-time refusal", err, after, later)
				}
			})
		}
		if st := planning.Parsing.Stats(); st.Done != parsed.Done || st.Declined != parsed.Declined+2 ||
			storetest.Snapshot(t, db) != before {
			t.Fatalf("a refused import was parsed or wrote (stats %+v after %+v)", st, parsed)
		}
		other := startImport(t, context.Background(), db, f.other.ID, planning.ImportOptions{})
		release()
		release = nil
		for _, im := range []importing{first, other} {
			if err := <-im.done; err != nil {
				t.Fatalf("an import let in: %v", err)
			}
		}
	})
}
