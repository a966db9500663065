package planning_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"

	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestImportsParseAFewAtATime: imports sent together all succeed, their
// files parsed no more at once than Parsing allows.
func TestImportsParseAFewAtATime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		data := xlsxFile(t, "good.xlsx")
		before := planning.Parsing.Stats()
		const n = 6
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = planning.ImportXLSX(context.Background(), db, f.shop.ID, "good.xlsx", data, now,
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

// TestImportGivesUpWaitingForItsTurn: an import whose request ends while
// every place is taken is not parsed and changes nothing.
func TestImportGivesUpWaitingForItsTurn(t *testing.T) {
	db := storetest.SQLite(t)
	f := setup(t, db)
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	for range planning.Parsing.Size() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = planning.Parsing.Do(context.Background(), func() error {
				started <- struct{}{}
				<-release
				return nil
			})
		}()
	}
	for range planning.Parsing.Size() {
		<-started
	}
	before := storetest.Snapshot(t, db)
	parsed := planning.Parsing.Stats().Done
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := planning.ImportXLSX(ctx, db, f.shop.ID, "good.xlsx", xlsxFile(t, "good.xlsx"), now, planning.ImportOptions{})
		done <- err
	}()
	for planning.Parsing.Stats().Waiting == 0 { // until the import waits for its turn
		select {
		case err := <-done:
			close(release)
			t.Fatalf("the import ended before waiting for its turn: %v", err)
		default:
			runtime.Gosched()
		}
	}
	cancel()
	err := <-done
	close(release)
	wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the request's end", err)
	}
	if planning.Parsing.Stats().Done != parsed+int64(planning.Parsing.Size()) || storetest.Snapshot(t, db) != before {
		t.Fatal("a refused import was parsed or wrote")
	}
}
