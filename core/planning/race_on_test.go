//go:build race

package planning_test

// raceDetector is true when the tests run with -race: the large imports are
// then skipped, the race detector making the pure-Go SQLite some thirty times
// slower while these tests exercise no concurrency.
const raceDetector = true
