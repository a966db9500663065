package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"

	"primeur/core/limit"
)

// Argon2id parameters from the OWASP Password Storage Cheat Sheet:
// m = 19 MiB, t = 2, p = 1.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// HashWait is how long a password hash or check waits for a place in
// Hashing before it is refused (core.ErrBusy, limit.MsgBusy).
const HashWait = 3 * time.Second

// Hashing is the one gate every argon2id computation of the process goes
// through (registration, login, password change, the demo and benchmark
// seeds): each takes 19 MiB and a core for tens of milliseconds, so at
// most half the cores (one at least) hash at once — the memory they take is
// bounded, and a flood of logins or registrations leaves the other half to
// the rest of the API (docs/BENCHMARKS.md, issue 13). Callers beyond wait
// their turn in order, at most HashWait, never while holding a database
// transaction.
var Hashing = limit.NewGate("password hashing", max(1, runtime.GOMAXPROCS(0)/2), HashWait, limit.MsgBusy)

// HashPassword returns the PHC string of an argon2id hash of password,
// computed through Hashing.
func HashPassword(ctx context.Context, password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("accounts: salt: %w", err)
	}
	var key []byte
	c := currentCost()
	err := Hashing.Do(ctx, func() error {
		key = argon2.IDKey([]byte(password), salt, c.time, c.memory, argonThreads, argonKeyLen)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("accounts: hash password: %w", err)
	}
	return c.phc(salt, key), nil
}

// phc formats an argon2id hash with the package's parameters.
func phc(salt, key []byte) string { return production.phc(salt, key) }

// phc formats an argon2id hash computed at cost c.
func (c argonCost) phc(salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, c.memory, c.time, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// CheckPassword reports whether password matches the PHC hash, in constant
// time, computing the hash through Hashing. Parameters are read from the
// hash, so they may change over time. A hash it cannot read — empty, as a
// person without password has (migration 72's accountants, who choose one
// with « Mot de passe oublié »), or malformed — matches nothing, after the
// same work as a real one: password is checked against dummyHash, so that
// a login's refusal takes as long whether the address has a password, a
// wrong one, or no account (PRODUCT §13 "Teams", SECURITY "Login timing").
// The error is Hashing's refusal or the context's.
func CheckPassword(ctx context.Context, hash, password string) (bool, error) {
	h, readable := checkedAgainst(hash)
	var got []byte
	err := Hashing.Do(ctx, func() error {
		got = argon2.IDKey([]byte(password), h.salt, h.time, h.memory, h.threads, uint32(len(h.key)))
		passwordChecks.Add(1)
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("accounts: check password: %w", err)
	}
	return subtle.ConstantTimeCompare(got, h.key) == 1 && readable, nil
}

// checkedAgainst is the hash CheckPassword computes for hash: hash
// itself when it is readable, else the dummy, which is also what a login
// of an unknown address passes. The dummy costs what the hashes made now
// cost (a test binary's may be cheaper, see CheapHashingForTests), so a
// refusal without a hash costs what one with a hash does.
func checkedAgainst(hash string) (h phcHash, readable bool) {
	h, readable = parsePHC(hash)
	if !readable || hash == dummyHash {
		h, _ = parsePHC(dummyHash)
		c := currentCost()
		h.memory, h.time = c.memory, c.time
	}
	return h, readable
}

// passwordChecks counts the argon2id verifications CheckPassword ran, for
// the tests that a refusal costs one whatever its cause (export_test.go).
var passwordChecks atomic.Int64

// phcHash is a PHC string's parameters, salt and key.
type phcHash struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

// parsePHC reads an argon2id PHC string of the current version; ok is
// false for anything else.
func parsePHC(hash string) (h phcHash, ok bool) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return h, false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return h, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &h.memory, &h.time, &h.threads); err != nil {
		return h, false
	}
	b64 := base64.RawStdEncoding
	var err error
	if h.salt, err = b64.DecodeString(parts[4]); err != nil {
		return h, false
	}
	if h.key, err = b64.DecodeString(parts[5]); err != nil || len(h.key) == 0 {
		return h, false
	}
	return h, true
}

// dummyHash is verified against when an email is unknown, so a login costs
// the same hash and takes the same time whether or not the account exists.
// It has the real parameters and a key no password is known to give; it is
// built without hashing, so starting the process costs no argon2 run.
var dummyHash = phc([]byte("primeur-no-user!"), []byte("this is no password's argon2 key"))
