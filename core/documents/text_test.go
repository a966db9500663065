package documents

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

func TestDrawable(t *testing.T) {
	long := strings.Repeat("Ferme 🥕 ", 1250) // 10,000 characters
	for _, tt := range []struct {
		name, in, want string
	}{
		{"french", "Épicerie du Lac — 1 234,50\u00a0€", "Épicerie du Lac — 1 234,50\u00a0€"},
		{"emoji", "Ferme du Lac 🥕", "Ferme du Lac �"},
		{"emoji with skin tone", "👩🏽‍🌾 Ferme", "� Ferme"},
		{"family: one replacement for five code points", "👨\u200d👩\u200d👧 Ferme", "� Ferme"},
		{"flag", "🇫🇷 Ferme", "� Ferme"},
		{"variation selector dropped", "❤\ufe0f Ferme", "❤ Ferme"},
		{"mathematical letters to their compatibility form", "𝔘n 𝕁ardin", "Un Jardin"},
		{"full-width letters", "Ｆｅｒｍｅ", "Ferme"},
		{"arabic", "مزرعة البحيرة", "مزرعة البحيرة"},
		{"hebrew", "חוות האגם", "חוות האגם"},
		{"cjk: one replacement per character", "湖の農場", "����"},
		{"ideographic space", "a\u3000b", "a b"},
		{"combining accent composed", "Fe\u0301e", "Fée"},
		{"stacked combining marks kept", "Z\u0335\u0321a", "Z\u0335\u0321a"},
		{"zero-width joiner and space dropped", "a\u200db\u200bc", "abc"},
		{"soft hyphen dropped", "Ver\u00adger", "Verger"},
		{"controls", "Ferme\x1b[31m\r\nRouge\x00", "Ferme[31m Rouge"},
		{"bidi override", "Ferme \u202eabc\u202c", "Ferme abc"},
		{"invalid utf-8", "Ferme \xff\xfe", "Ferme �"},
		{"private use", "a\ue000b", "a�b"},
		{"unassigned", "a\u0378b", "a�b"},
		{"default-ignorable unassigned dropped", "a\U000E0FFFb", "ab"},
		{"long text cut", long, strings.TrimSuffix(strings.Repeat("Ferme � ", 250), " ") + "…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := drawable(tt.in, maxText)
			if got != tt.want {
				t.Fatalf("drawable(%q) = %q, want %q", cut(tt.in), cut(got), cut(tt.want))
			}
			g := fontGlyphs()
			for _, r := range got {
				if !g.has(r) && r != ' ' {
					t.Fatalf("drawable(%q) keeps %U, which the fonts lack", cut(tt.in), r)
				}
			}
			if again := drawable(got, maxText); again != got {
				t.Fatalf("drawable is not stable: %q then %q", cut(got), cut(again))
			}
		})
	}
}

func cut(s string) string {
	if utf8.RuneCountInString(s) > 60 {
		return string([]rune(s)[:60]) + "[…]"
	}
	return s
}

func TestReplacementAndEllipsisAreDrawn(t *testing.T) {
	g := fontGlyphs()
	for _, r := range Replacement + "… \u00a0\u202f€−" {
		if !g.has(r) {
			t.Errorf("the fonts lack %U", r)
		}
	}
}

func TestVisual(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"latin unchanged", "Ferme du Lac (74)", "Ferme du Lac (74)"},
		{"hebrew reversed", "חוות האגם", "םגאה תווח"},
		{"hebrew in french", "Ferme חוות האגם, Annecy", "Ferme םגאה תווח, Annecy"},
		{"number after hebrew", "חווה 12", "12 הווח"},
		{"number before hebrew stays left-to-right", "12 חווה", "12 הווח"},
		{"brackets in hebrew mirrored", "חווה (אגם)", "(םגא) הווח"},
		{"brackets after french stay", "Ferme (אגם)", "Ferme (םגא)"},
		{"brackets holding french stay", "חווה (Lac)", "הווח (Lac)"},
		{"arabic with marks kept on their letter", "مَزرعة", "ةعرزمَ"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := visual(tt.in); got != tt.want {
				t.Errorf("visual(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	d := newDoc("test", "test", time.Unix(0, 0))
	d.font("", 10)
	room := func(w float64) float64 { return w - 2*d.pdf.GetCellMargin() }
	for _, tt := range []struct {
		name string
		in   string
		w    float64
		// sep joins the lines back into the text, spaces at breaks aside.
		sep  string
		want int // lines
	}{
		{"fits", "Ferme du Lac", 100, " ", 1},
		{"empty", "", 100, " ", 1},
		{"breaks at spaces", "Ferme du Lac de Talloires et des Aravis", 30, " ", 3},
		{"a word longer than the line", "Abcdefghijklmnopqrstuvwxyz", 20, "", 3},
		{"accents stay on their letter", strings.Repeat("e\u0301\u0301", 12), 15, "", 3},
		{"spaces at a break dropped", "Ferme    du    Lac", 18, " ", 2},
		{"a cluster wider than the line", "WWW", 2.5, "", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := d.wrap(tt.in, tt.w)
			if len(got) != tt.want {
				t.Fatalf("wrap(%q, %v) = %q: %d lines, want %d", tt.in, tt.w, got, len(got), tt.want)
			}
			joined := strings.Join(got, tt.sep)
			if tt.sep == " " {
				joined, tt.in = strings.Join(strings.Fields(joined), " "), strings.Join(strings.Fields(tt.in), " ")
			}
			if joined != tt.in {
				t.Fatalf("wrap(%q, %v) = %q: lost text", tt.in, tt.w, got)
			}
			for i, l := range got {
				if w := d.pdf.GetStringWidth(l); w > room(tt.w) && len(d.pieces(l)) > 1 {
					t.Errorf("line %q is %.1f wide, more than %.1f", l, w, room(tt.w))
				}
				if strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") {
					t.Errorf("line %q starts or ends with a space", l)
				}
				if utf8.RuneCountInString(l)%3 != 0 && strings.Contains(tt.name, "accents") {
					t.Errorf("line %q splits a letter from its accents", l)
				}
				// Greedy: the next line's first word or cluster would not fit.
				if i+1 < len(got) {
					next := d.pieces(got[i+1])[0].s
					if tt.sep == " " {
						next = " " + strings.Fields(got[i+1])[0]
					}
					if d.pdf.GetStringWidth(l+next) <= room(tt.w) {
						t.Errorf("line %q has room for %q", l, next)
					}
				}
			}
		})
	}
}

// TestPiecesAreGraphemeClusters: pieces' shortcut for ASCII gives the
// clusters uniseg gives, at their offsets, around combining marks, joiners,
// flags and CR LF.
func TestPiecesAreGraphemeClusters(t *testing.T) {
	d := newDoc("test", "test", time.Unix(0, 0))
	d.font("", 10)
	for _, text := range []string{
		"Ferme du Lac", "e\u0301te\u0301", "a\u200db", "Fe\u0301\u0301e", "🇫🇷a🇫🇷", "ab\r\ncd\r", "a\u0308", "x", "",
		"👨\u200d👩\u200d👧 Ferme", "Épicerie « Le Marché »", "a\u0915\u094d\u0937b",
	} {
		var want []string
		state := -1
		for rest := text; rest != ""; {
			var c string
			c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
			want = append(want, c)
		}
		ps := d.pieces(text)
		var got []string
		at := 0
		for _, p := range ps {
			if p.at != at || text[p.at:p.at+len(p.s)] != p.s {
				t.Errorf("%q: piece %q at %d, want at %d", text, p.s, p.at, at)
			}
			at += len(p.s)
			got = append(got, p.s)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q: pieces %q, clusters %q", text, got, want)
		}
	}
}
