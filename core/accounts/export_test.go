package accounts

// SetAccountCeiling lowers MaxLoginFailuresPerAccount for a test, so that
// the ceiling is reached without a hundred argon2 runs; it returns the
// function that puts it back.
func SetAccountCeiling(n int) (restore func()) {
	old := loginPerAccount.limit
	loginPerAccount.limit = n
	return func() { loginPerAccount.limit = old }
}

// ClientKey exposes clientKey.
var ClientKey = clientKey

// PasswordChecks is how many argon2id verifications CheckPassword has run.
func PasswordChecks() int64 { return passwordChecks.Load() }
