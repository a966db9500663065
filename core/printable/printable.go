// Package printable turns any text a user sent into text that can be shown
// on one line anywhere Primeur writes it for a person to read: an email's
// subject and body, a terminal, a CSV cell, and (through core/documents,
// which adds what its font can draw) a PDF. It is the one place of the rule
// "no control character reaches an output":
//
//   - invalid UTF-8 becomes U+FFFD (one per run of invalid bytes);
//   - the text is put in Unicode normalization form C, so a letter followed
//     by a combining accent becomes the accented letter where one exists;
//   - a line break or other whitespace control (tab, CR, LF, CR LF, VT, FF,
//     NEL, the line and paragraph separators) becomes one space: a name
//     cannot start a new line of an email, a header or a report;
//   - every other control character — ESC and the rest of C0 and C1, DEL —
//     and every bidirectional formatting character (embeddings, overrides,
//     isolates, marks) is removed: no terminal escape sequence, no header
//     injection, no text reordered to read otherwise than it is stored.
//
// Everything else is kept as sent, emoji and every script included: a mail
// client or a terminal draws them. Text is processed by grapheme cluster
// (what a reader sees as one character, rivo/uniseg), so the cost is linear
// in the length of the text.
package printable

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"
)

// Ellipsis marks where Cut shortened a text.
const Ellipsis = "…"

// Line returns s as printable text on one line, by the rules of the package
// documentation.
func Line(s string) string {
	if isPlain(s) {
		return s
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return IsBreak(r) || removed(r) }) && utf8.ValidString(s) {
		// Nothing to replace or remove: only the normalization is left
		// (which returns s itself when it is already NFC, as names and
		// addresses typed on keyboards are).
		return norm.NFC.String(s)
	}
	return byCluster(s)
}

// byCluster is Line's rules applied to every grapheme cluster of s, which
// Line's fast paths give the same result as.
func byCluster(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	state := -1
	for s != "" {
		var cluster string
		cluster, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		b.WriteString(clean(cluster))
	}
	// Composed last: a removed control no longer separates a letter from
	// its accent.
	return norm.NFC.String(b.String())
}

// isPlain tells whether s is printable ASCII, which Line leaves as it is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// clean applies the rules to one grapheme cluster.
func clean(cluster string) string {
	r, _ := utf8.DecodeRuneInString(cluster)
	if IsBreak(r) {
		return " " // a control cluster is one rune, or CR LF
	}
	if !strings.ContainsFunc(cluster, removed) {
		return cluster
	}
	return strings.Map(func(r rune) rune {
		if removed(r) {
			return -1
		}
		return r
	}, cluster)
}

// IsBreak tells whether r is a whitespace control or separator that Line
// turns into a space.
func IsBreak(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// removed tells whether Line removes r: a control character that is not a
// break, or a bidirectional formatting character.
func removed(r rune) bool {
	return (unicode.IsControl(r) && !IsBreak(r)) || unicode.Is(unicode.Bidi_Control, r)
}

// Cut returns s cut to at most n grapheme clusters, the last of them
// Ellipsis when s was longer. n below 1 counts as 1.
func Cut(s string, n int) string {
	n = max(n, 1)
	if len(s) <= n {
		return s // no more clusters than bytes
	}
	rest, state := s, -1
	end := 0 // byte length of the first n-1 clusters
	for i := 0; rest != ""; i++ {
		if i == n {
			return s[:end] + Ellipsis
		}
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if i < n-1 {
			end += len(cluster)
		}
	}
	return s
}
