package text

import "testing"

func TestClean(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		multiline bool
		want      bool
	}{
		{"empty", "", false, true},
		{"French", "Épicerie « Chez Léa » — 12,50 €", false, true},
		{"astral and combining", "Ferme du Lac 🥕 𝔘 e\u0301", false, true},
		{"right to left", "מאפייה عربي", false, true},
		{"NUL", "a\x00b", false, false},
		{"NUL in free text", "a\x00b", true, false},
		{"escape", "a\x1b[31mb", true, false},
		{"DEL", "a\x7fb", false, false},
		{"C1 control", "a\u0085b", true, false},
		{"tab", "a\tb", false, false},
		{"tab in free text", "a\tb", true, true},
		{"newlines in free text", "a\r\nb\nc", true, true},
		{"newline in one line", "a\nb", false, false},
		{"invalid UTF-8", "a\xffb", true, false},
		{"truncated sequence", "caf\xc3", false, false},
		{"surrogate encoded", "\xed\xa0\x80", false, false},
		{"replacement character itself", "a\uFFFDb", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in, tt.multiline); got != tt.want {
				t.Fatalf("Clean(%q, %v) = %v, want %v", tt.in, tt.multiline, got, tt.want)
			}
		})
	}
}
