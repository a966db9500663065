// Package text holds the one rule every piece of text a person sends to
// Primeur follows, whatever the field: valid UTF-8 and no control
// character — except tab, line feed and carriage return in multi-line free
// text (a claim's comment). The daemon applies it to every JSON string, path
// and query parameter before any handler runs, so NUL bytes and invalid
// UTF-8 never reach a database (PostgreSQL refuses both in TEXT) and answer
// the same on both engines.
package text

import (
	"unicode"
	"unicode/utf8"
)

// MsgInvalid is the French message of a field whose text breaks the rule.
const MsgInvalid = "Ce champ contient des caractères non autorisés (caractères de contrôle ou encodage invalide)."

// Clean reports whether s is valid UTF-8 without control characters (the
// Unicode Cc category: C0, DEL and C1). multiline allows tab, line feed and
// carriage return.
func Clean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n' || r == '\r')) {
			return false
		}
		i += size
	}
	return true
}
