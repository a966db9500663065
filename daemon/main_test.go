package daemon_test

import (
	"flag"
	"os"
	"testing"

	"primeur/core/accounts"
)

// TestMain hashes this binary's passwords at argon2id's least cost
// (accounts.CheapHashingForTests): the tests register and log in some
// 700 people; the tests of the hashing gate under contention take the
// real cost back (accounts.RealHashingForTest), and benchmarks keep it.
func TestMain(m *testing.M) {
	flag.Parse()
	accounts.CheapHashingForTests()
	os.Exit(m.Run())
}
