//go:build race

package commands

// raceDetector is true when the tests run with -race, which makes the
// pure-Go SQLite some thirty times slower: large imports are made smaller.
const raceDetector = true
