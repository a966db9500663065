package printable_test

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"primeur/core/printable"
)

func TestLine(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"ascii", "Ferme du Lac", "Ferme du Lac"},
		{"accents", "Épicerie du Lac", "Épicerie du Lac"},
		{"emoji kept", "Ferme du Lac 🥕", "Ferme du Lac 🥕"},
		{"astral letter kept", "𝔘n jardin", "𝔘n jardin"},
		{"family emoji kept", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"arabic", "مزرعة البحيرة", "مزرعة البحيرة"},
		{"hebrew", "חוות האגם", "חוות האגם"},
		{"cjk", "湖の農場", "湖の農場"},
		{"combining accent composed", "Fe\u0301e", "Fée"},
		{"combining without precomposed form", "q\u0307", "q\u0307"},
		{"accent after a removed control", "e\x00\u0301", "é"},
		{"newline", "Ferme\nRouge", "Ferme Rouge"},
		{"crlf is one space", "Objet\r\nBcc: x@y.fr", "Objet Bcc: x@y.fr"},
		{"tab and form feed", "a\tb\fc", "a b c"},
		{"separators", "a\u2028b\u2029c\u0085d", "a b c d"},
		{"escape sequence", "Ferme\x1b[31mRouge\x1b[0m", "Ferme[31mRouge[0m"},
		{"c1 controls and del", "a\u009bb\u007fc\x00d", "abcd"},
		{"bidi override", "Ferme \u202egnp.exe\u202c", "Ferme gnp.exe"},
		{"bidi isolates and marks", "\u2066a\u2069\u200eb\u200f\u061c", "ab"},
		{"zero-width joiner kept", "a\u200db", "a\u200db"},
		{"invalid utf-8", "Ferme \xff\xfe du \xc3", "Ferme \ufffd du \ufffd"},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := printable.Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := printable.ByCluster(tt.in); got != tt.want {
				t.Errorf("by cluster, %q gives %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"Ferme", 5, "Ferme"},
		{"Ferme", 10, "Ferme"},
		{"Fermes", 5, "Ferm…"},
		{"🥕🥕🥕", 2, "🥕…"},
		{"👨\u200d👩\u200d👧x", 1, "…"},
		{"👨\u200d👩\u200d👧xy", 2, "👨\u200d👩\u200d👧…"},
		{"e\u0301e\u0301e\u0301", 2, "e\u0301…"},
		{"abc", 0, "…"},
		{"", 3, ""},
	} {
		if got := printable.Cut(tt.in, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// FuzzLine: whatever the input, one line of valid UTF-8 without any control
// or bidirectional formatting character, stable when cleaned again, and
// Line's fast paths give what the rules applied cluster by cluster give.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"Ferme du Lac 🥕", "a\r\nb", "\x1b[2J", "\u202eabc", "\xff", "e\u0301", "Épicerie « Le Marché »", "Fe\u0301e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := printable.Line(s)
		if slow := printable.ByCluster(s); got != slow {
			t.Fatalf("Line(%q) = %q, by cluster %q", s, got, slow)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Line(%q) = %q: invalid UTF-8", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("Line(%q) = %q keeps %U", s, got, r)
			}
		}
		if again := printable.Line(got); again != got {
			t.Fatalf("Line is not stable: %q then %q", got, again)
		}
		if got == "" && !onlyRemoved(s) {
			t.Fatalf("Line(%q) is empty", s)
		}
	})
}

// onlyRemoved tells whether every rune of s is one Line removes.
func onlyRemoved(s string) bool {
	for _, r := range s {
		if !unicode.IsControl(r) && !unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
	}
	return true
}
