package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
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
	err := Hashing.Do(ctx, func() error {
		key = argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("accounts: hash password: %w", err)
	}
	return phc(salt, key), nil
}

// phc formats an argon2id hash with the package's parameters.
func phc(salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// CheckPassword reports whether password matches the PHC hash, in constant
// time, computing the hash through Hashing. Parameters are read from the
// hash, so they may change over time. A malformed hash matches nothing; the
// error is Hashing's refusal or the context's.
func CheckPassword(ctx context.Context, hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, nil
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, nil
	}
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil {
		return false, nil
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, nil
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, nil
	}
	var got []byte
	err = Hashing.Do(ctx, func() error {
		got = argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(want)))
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("accounts: check password: %w", err)
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when an email is unknown, so a login costs
// the same hash and takes the same time whether or not the account exists.
// It has the real parameters and a key no password is known to give; it is
// built without hashing, so starting the process costs no argon2 run.
var dummyHash = phc([]byte("primeur-no-user!"), []byte("this is no password's argon2 key"))
