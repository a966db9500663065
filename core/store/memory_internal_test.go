package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestReleaseMemoryLeavesAnOpenGroup: a group of writers whose
// transaction is left open for the next in line (group.go) has the write
// connection in use though nobody holds the writer's token at that
// moment: the release leaves it alone, and asks the idle readers.
func TestReleaseMemoryLeavesAnOpenGroup(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "", filepath.Join(t.TempDir(), "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reader, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reader.Close() // one idle reader
	db.writer <- struct{}{}
	db.open = &commitGroup{done: make(chan struct{})}
	<-db.writer
	r, err := db.ReleaseMemory(ctx)
	db.writer <- struct{}{}
	db.open = nil
	<-db.writer
	if err != nil || r.Conns != 1 {
		t.Fatalf("asked %d connections (%v), want the idle reader only", r.Conns, err)
	}
}
