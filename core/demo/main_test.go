package demo

import (
	"flag"
	"os"
	"testing"

	"primeur/core/accounts"
)

// TestMain makes the passwords this binary's tests hash cost argon2id's
// least: the accounts the tests register are their setting, not their
// subject (issue 35).
func TestMain(m *testing.M) {
	flag.Parse()
	accounts.CheapHashingForTests()
	os.Exit(m.Run())
}
