package reliability

import (
	"fmt"
	"testing"

	"primeur/core/jobs"
	"primeur/core/store"
)

// race is the set-up of the replica tests of a job that must do each piece
// of work once: which table the test holds, the statement the job's
// transaction begins its writes with, and the job whose report is read.
type race struct {
	table, statement, job string
}

// run starts two `primeur serve` processes pinned to now on b's database
// (each with its own data directory on PostgreSQL), whose start-up catch-up
// runs every job at once on both, with the writes to r.table held
// (holdWrites) so that both replicas reach the race before either writes.
// On PostgreSQL it lets them go once both sessions wait on r.statement:
// both have read everything and decided. On SQLite the hold takes the
// database's one write lock and a process waiting for it shows nothing: it
// lets them go once both logged the start of every job, which makes the
// race likely without proving it. It then waits for every job of both to
// end and returns the replicas (still running: the caller checks and stops
// them) with the report of r.job of each.
func (r race) run(t *testing.T, b base, db *store.DB, now string, tr transport) ([]*proc, []string) {
	t.Helper()
	var names []string
	for _, j := range jobs.All {
		names = append(names, j.Name)
	}
	release := holdWrites(t, db, r.table)
	replicas := make([]*proc, 2)
	for i := range replicas {
		rb := b
		if b.url != "" {
			rb.dir = t.TempDir() // its own data directory, the same database
		}
		replicas[i], _ = serve(t, fmt.Sprintf("replica %d", i+1), rb, now, tr.args()...)
	}
	if b.url != "" {
		until(t, "both "+r.job+" jobs waiting on the "+r.table+" table", func() bool {
			return waitingOn(t, db, r.table, r.statement) == 2
		})
	} else {
		for _, p := range replicas {
			for _, job := range names {
				p.waitLine("the start of job "+job, 0, func(l string) bool {
					return hasMsg(l, "job started") && field(l, "job") == job
				})
			}
		}
	}
	release()
	reports := make([]string, len(replicas))
	for i, p := range replicas {
		p.jobsDone(names...)
		line, _ := p.waitLine("the end of job "+r.job, 0, func(l string) bool {
			return hasMsg(l, "job done") && field(l, "job") == r.job
		})
		reports[i] = field(line, "report")
	}
	return replicas, reports
}
