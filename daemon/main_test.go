package daemon_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"

	"primeur/core/accounts"
)

// TestMain hashes this binary's passwords at argon2id's least cost
// (accounts.CheapHashingForTests): the tests register and log in some
// 700 people; the tests of the hashing gate under contention take the
// real cost back (accounts.RealHashingForTest), and benchmarks keep it.
//
// Its parallel tests mostly wait — on PostgreSQL, on fsync, on a daemon's
// goroutines — so unless -test.parallel is given, twice as many run at
// once as there are cores: the package, the last of `go test ./...` to
// end, took 89 s with two at once and 80 s with four on the 2-core
// machine (issue 35).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
	accounts.CheapHashingForTests()
	os.Exit(m.Run())
}
