package documents

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/bidi"
)

// piece is a grapheme cluster of a text, at its byte offset, and its
// width in the current font.
type piece struct {
	at int
	s  string
	w  float64
}

// pieces splits a drawable text into grapheme clusters with their widths,
// into the document's scratch slice (valid until the next call).
func (d *doc) pieces(text string) []piece {
	ps := d.scratch[:0]
	state := -1
	for i := 0; i < len(text); {
		var cluster string
		if c := text[i]; c < utf8.RuneSelf && c != '\r' && (i+1 == len(text) || text[i+1] < utf8.RuneSelf) {
			// An ASCII character followed by another (or by nothing) is a
			// cluster of its own, CR LF aside: uniseg's rules need not be
			// run, and start afresh after it.
			cluster, state = text[i:i+1], -1
		} else {
			cluster, _, _, state = uniseg.FirstGraphemeClusterInString(text[i:], state)
		}
		ps = append(ps, piece{i, cluster, d.pdf.GetStringWidth(cluster)})
		i += len(cluster)
	}
	d.scratch = ps
	return ps
}

// wrap splits a drawable text into the lines it takes in a cell of width w
// in the current font: each line as long as fits, broken after the last
// space that fits, or between two grapheme clusters when a word is longer
// than the line (never inside one: an accent stays on its letter). Spaces
// at a break are dropped. The documents measure and draw with this one
// function, so a frame is always as tall as the text it holds; fpdf's own
// SplitText and MultiCell are not used (SplitText panics on a character
// beyond U+FFFF and counts a zero-width mark as 65,535 units wide, and
// neither knows grapheme clusters).
func (d *doc) wrap(text string, w float64) []string {
	w -= 2 * d.pdf.GetCellMargin()
	ps := d.pieces(text)
	// join is the text of ps[i:j] (a part of text) without its trailing
	// spaces.
	join := func(i, j int) string {
		return strings.TrimRight(text[ps[i].at:ps[j-1].at+len(ps[j-1].s)], " ")
	}
	var lines []string
	for i := 0; i < len(ps); {
		j, width, space := i, 0.0, -1
		for ; j < len(ps); j++ {
			if ps[j].s == " " {
				space = j // a space never overflows: it is dropped at a break
			} else if width+ps[j].w > w {
				break
			}
			width += ps[j].w
		}
		switch {
		case j == len(ps):
			lines = append(lines, join(i, j))
			i = j
		case space > i:
			lines = append(lines, join(i, space))
			i = space + 1
		case j == i: // one cluster wider than the line
			lines = append(lines, ps[i].s)
			i++
		default:
			lines = append(lines, join(i, j))
			i = j
		}
		for i < len(ps) && ps[i].s == " " {
			i++
		}
	}
	if len(lines) == 0 {
		return []string{""} // a cell is one line high even when empty
	}
	return lines
}

// visual returns a line in the order it is drawn, left to right, so that
// right-to-left text (Hebrew, Arabic) reads as stored. It resolves the
// levels of the Unicode bidirectional algorithm in a simplified form, for
// a left-to-right paragraph without explicit formatting (drawable removes
// it): right-to-left letters at level 1, numbers after them at level 2,
// and a run of neutral characters (spaces, punctuation) at level 1 between
// two right-to-left characters, 0 otherwise. Runs of levels are then
// reversed, highest first, by grapheme cluster (a letter keeps its marks),
// and brackets at an odd level are mirrored. Only the character classes
// come from golang.org/x/text/unicode/bidi (a table lookup); its
// Paragraph.Order is not used, being incomplete and known to panic on some
// texts.
func visual(line string) string {
	if !strings.ContainsFunc(line, isRTL) {
		return line
	}
	var rs []run
	prev := byte('L') // the last strong direction; the paragraph starts left-to-right
	state := -1
	for rest := line; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		p, _ := bidi.LookupRune([]rune(cluster)[0])
		r := run{s: cluster, kind: 'N'}
		if p.IsBracket() {
			r.bracket = cluster
		}
		switch p.Class() {
		case bidi.L:
			r.kind, prev = 'L', 'L'
		case bidi.R, bidi.AL:
			r.kind, r.level, prev = 'R', 1, 'R'
		case bidi.EN, bidi.AN:
			if prev == 'R' {
				r.kind, r.level = 'R', 2 // a number within right-to-left text
			} else {
				r.kind = 'L'
			}
		}
		rs = append(rs, r)
	}
	pairBrackets(rs)
	// Neutrals take the direction of the text around them when both sides
	// agree on right-to-left, the paragraph's otherwise.
	for i := 0; i < len(rs); {
		if rs[i].kind != 'N' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j].kind == 'N' {
			j++
		}
		if i > 0 && j < len(rs) && rs[i-1].kind == 'R' && rs[j].kind == 'R' {
			for k := i; k < j; k++ {
				rs[k].level = 1
			}
		}
		i = j
	}
	for level := 2; level >= 1; level-- {
		for i := 0; i < len(rs); {
			if rs[i].level < level {
				i++
				continue
			}
			j := i
			for j < len(rs) && rs[j].level >= level {
				j++
			}
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				rs[a], rs[b] = rs[b], rs[a]
			}
			i = j
		}
	}
	var b strings.Builder
	b.Grow(len(line))
	for _, r := range rs {
		if r.level%2 == 1 {
			if m, ok := mirrored[r.s]; ok {
				r.s = m
			}
		}
		b.WriteString(r.s)
	}
	return b.String()
}

// run is a grapheme cluster of a line with its bidirectional level.
type run struct {
	s     string
	level int
	// kind: 'L' left-to-right, 'R' right-to-left, 'N' neutral.
	kind byte
	// bracket is s when it is a bracket.
	bracket string
}

// pairBrackets resolves paired brackets as rule N0 of the bidirectional
// algorithm does, for a left-to-right paragraph: a pair holding
// left-to-right text stays left-to-right; one holding only right-to-left
// text (and numbers) is right-to-left when the text before it is; one
// holding no strong character stays neutral. Pairs are found with a stack
// of 63 openings at most (BD16).
func pairBrackets(rs []run) {
	var open []int
	for i := range rs {
		if rs[i].bracket == "" || rs[i].kind != 'N' {
			continue
		}
		if _, ok := closingOf[rs[i].bracket]; ok {
			if len(open) == 63 {
				return
			}
			open = append(open, i)
			continue
		}
		for k := len(open) - 1; k >= 0; k-- {
			o := open[k]
			if closingOf[rs[o].bracket] != rs[i].bracket {
				continue
			}
			open = open[:k]
			kind := byte('N')
			for _, r := range rs[o+1 : i] {
				if r.kind == 'L' {
					kind = 'L'
					break
				}
				if r.kind == 'R' {
					kind = 'R'
				}
			}
			if kind == 'R' {
				kind = 'L'
				for b := o - 1; b >= 0; b-- {
					if rs[b].kind != 'N' {
						kind = rs[b].kind
						break
					}
				}
			}
			if kind != 'N' {
				level := 0
				if kind == 'R' {
					level = 1
				}
				rs[o].kind, rs[o].level = kind, level
				rs[i].kind, rs[i].level = kind, level
			}
			break
		}
	}
}

// closingOf pairs the opening brackets the documents may hold with their
// closing ones.
var closingOf = map[string]string{"(": ")", "[": "]", "{": "}", "«": "»", "‹": "›"}

// isRTL tells whether r is a right-to-left letter.
func isRTL(r rune) bool {
	p, _ := bidi.LookupRune(r)
	return p.Class() == bidi.R || p.Class() == bidi.AL
}

// mirrored are the brackets drawn mirrored in right-to-left text.
var mirrored = map[string]string{
	"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{",
	"<": ">", ">": "<", "«": "»", "»": "«", "‹": "›", "›": "‹",
}
