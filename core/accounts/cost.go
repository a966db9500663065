package accounts

import (
	"flag"
	"sync/atomic"
	"testing"
)

// argonCost is the memory (KiB) and the passes of an argon2id hash.
type argonCost struct{ memory, time uint32 }

// production is the cost of every hash the primeur binary computes: the
// OWASP figures above, the only ones outside a test binary.
var production = argonCost{argonMemory, argonTime}

// cheap is argon2id's least memory for one lane and one pass: a test
// binary's registrations and logins cost microseconds instead of 19 MiB
// and tens of milliseconds each (issue 35: argon2 was a sixth of the
// daemon's tests' CPU, some 700 hashes).
var cheap = argonCost{8, 1}

// cost is the cost of the hashes made now; nil is production. Only
// CheapHashingForTests and RealHashingForTest set it, and they refuse to
// run outside a test binary.
var cost atomic.Pointer[argonCost]

// currentCost is the cost of the hashes made now.
func currentCost() argonCost {
	if c := cost.Load(); c != nil {
		return *c
	}
	return production
}

// CheapHashingForTests makes the passwords this test binary hashes, and
// the dummy hash a refused login checks, cost argon2id's least (8 KiB,
// one pass) — the way test settings lower bcrypt's or PBKDF2's work in
// other frameworks — unless the binary runs benchmarks (-test.bench),
// which measure the real cost. Hashes keep their parameters in their PHC
// string, so a password hashed cheaply is checked cheaply and a real one
// really, whatever the setting. A package's TestMain calls it after
// flag.Parse; the tests of what the cost itself guarantees (the hashing
// gate's bounds under contention) call RealHashingForTest. It panics
// outside a test binary: no production path can lower the cost.
func CheapHashingForTests() {
	mustTest("CheapHashingForTests")
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		return
	}
	c := cheap
	cost.Store(&c)
}

// RealHashingForTest gives the test the production cost until it ends,
// in a binary where CheapHashingForTests lowered it. Tests calling it do
// not run in parallel with others. It panics outside a test binary.
func RealHashingForTest(t testing.TB) {
	mustTest("RealHashingForTest")
	before := cost.Swap(nil)
	t.Cleanup(func() { cost.Store(before) })
}

// mustTest panics unless the process is a test binary.
func mustTest(name string) {
	if !testing.Testing() {
		panic("accounts: " + name + " outside a test binary")
	}
}
