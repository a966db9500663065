package daemon

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/scratch"
)

// arenasKept is how many scratch arenas the daemon keeps between requests.
const arenasKept = 4

// scratchKey carries an operation's scratch arena (withScratch).
type scratchKey struct{}

// withScratch lends the operation an arena to build its views in and takes
// it back once the response is written — huma writes it before next
// returns —, for the largest answers: the user load and the needs (issue
// 20, core/scratch). An operation that panics keeps its arena, which the
// collector then takes: nothing may build in an array a response being
// abandoned may still hold.
func (d *Daemon) withScratch(ctx huma.Context, next func(huma.Context)) {
	a := d.arenas.Get()
	next(huma.WithValue(ctx, scratchKey{}, a))
	d.arenas.Put(a)
}

// scratchOf returns the arena withScratch lent the operation, nil outside
// one (the views are then allocated).
func scratchOf(ctx context.Context) *scratch.Arena {
	a, _ := ctx.Value(scratchKey{}).(*scratch.Arena)
	return a
}
