package schema_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

func TestCounterIsGapFreeUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		got := map[int64]bool{}
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				err := db.Tx(ctx, func(tx *sqlx.Tx) error {
					v, err := store.Next(ctx, tx, "test")
					if err != nil {
						return err
					}
					if i%5 == 0 {
						return errors.New("rolled back") // gives its value back
					}
					mu.Lock()
					got[v] = true
					mu.Unlock()
					return nil
				})
				if err != nil && err.Error() != "rolled back" {
					t.Error(err)
				}
			}(i)
		}
		wg.Wait()
		for v := int64(1); v <= 16; v++ {
			if !got[v] {
				t.Fatalf("values %v: %d missing", got, v)
			}
		}
		if len(got) != 16 {
			t.Fatalf("values %v", got)
		}
	})
}
