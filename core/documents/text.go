package documents

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/rivo/uniseg"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"

	"primeur/core/printable"
)

// Replacement is what a document shows for a character its font cannot
// draw: U+FFFD REPLACEMENT CHARACTER, one for each character as a reader
// sees it (a grapheme cluster: an emoji with its modifiers and joiners, a
// flag, a letter with its accents). DejaVu Sans draws it as a diamond with
// a question mark; text extraction reads it back as U+FFFD.
const Replacement = "\uFFFD"

// Length limits of the text in a document, in grapheme clusters; a longer
// text is cut, printable.Ellipsis ("…") marking the cut.
const (
	// maxBoxLine bounds a line of a party's block (name, address line…),
	// so that a block always fits on a page beside the other.
	maxBoxLine = 120
	// maxCell bounds a table cell (a claim's comment is 500 at most), so
	// that a row always fits on a page.
	maxCell = 500
	// maxText bounds a field's value or a paragraph.
	maxText = 2000
)

// Bounds of the wrapped lines of a text: a frame must fit on one page, and
// no text may take more than a part of one. The last line shown ends with
// an ellipsis.
const (
	// maxBoxLines bounds each line of a party's block.
	maxBoxLines = 3
	// maxCellLines bounds a table cell.
	maxCellLines = 12
	// maxTextLines bounds a field's value or a paragraph.
	maxTextLines = 12
)

// glyphs is the set of characters the embedded fonts can draw, regular and
// bold alike, read from their character maps, less the invisible ones (see
// invisible).
type glyphs struct {
	drawn [0x10000 / 64]uint64
}

func (g *glyphs) has(r rune) bool {
	return r >= 0 && r < 0x10000 && g.drawn[r/64]&(1<<(r%64)) != 0
}

// fontGlyphs reads the fonts' coverage once. fpdf maps a font's characters
// from its Unicode BMP character map (format 4) only, and keeps one width
// per code point up to U+FFFF: a character is drawable when both fonts map
// it there to a real glyph.
var fontGlyphs = sync.OnceValue(func() *glyphs {
	g := &glyphs{}
	fonts := make([]*sfnt.Font, 2)
	for i, data := range [][]byte{fontRegular, fontBold} {
		f, err := sfnt.Parse(data)
		if err != nil {
			panic(fmt.Sprintf("documents: embedded font: %v", err)) // the embedded files are broken: no document at all
		}
		fonts[i] = f
	}
	var buf sfnt.Buffer
	for r := rune(0x20); r < 0x10000; r++ {
		if (r >= 0xD800 && r <= 0xDFFF) || invisible(r) {
			continue // surrogates (not characters), and what is never drawn
		}
		drawn := true
		for _, f := range fonts {
			if gi, err := f.GlyphIndex(&buf, r); err != nil || gi == 0 {
				drawn = false
			}
		}
		if drawn {
			g.drawn[r/64] |= 1 << (r % 64)
		}
	}
	return g
})

// drawable returns s as the documents write it, cut to max grapheme
// clusters: printable.Line's rules, then each grapheme cluster the fonts
// cannot draw in full becomes, in this order of preference,
//
//  1. itself without its invisible format characters (zero-width joiners
//     and spaces, variation selectors, soft hyphens…), which a reader does
//     not see (the fonts draw a soft hyphen as a hyphen);
//  2. a space, if it is a space the fonts lack;
//  3. its compatibility form (NFKC), if the fonts draw that: 𝔘 → U,
//     ﬁ → fi, ² → 2, full-width Ａ → A;
//  4. Replacement.
//
// Every character of the result is one fpdf can measure and draw: a code
// point below U+FFFF in the fonts' character map. That is the fix for
// go-pdf/fpdf v0.9.0's limits: its widths table has 65,536 entries, which
// SplitText, MultiCell and GetStringWidth index with the code point itself
// (a panic, "index out of range", on any character beyond the BMP: emoji,
// 𝔘…), its UTF-8 to UTF-16 conversion treats a 4-byte sequence as a 3-byte
// one and reads past the end of a truncated one, and it writes code points
// as 2-byte character ids (Identity-H), so it has no way to draw a
// character beyond the BMP at all — no fallback font could help.
func drawable(s string, max int) string {
	s = printable.Cut(printable.Line(s), max)
	g := fontGlyphs()
	if strings.IndexFunc(s, func(r rune) bool { return !g.has(r) }) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	state := -1
	for s != "" {
		var cluster string
		cluster, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		b.WriteString(drawCluster(g, cluster))
	}
	return b.String()
}

// drawCluster applies drawable's steps to one grapheme cluster.
func drawCluster(g *glyphs, cluster string) string {
	if all(g, cluster) {
		return cluster
	}
	cluster = strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, cluster)
	switch {
	case all(g, cluster): // "" included: a joiner alone
		return cluster
	case onlySpaces(cluster):
		return " "
	}
	if k := norm.NFKC.String(cluster); k != "" && all(g, k) {
		return k
	}
	return Replacement
}

// all tells whether the fonts draw every character of s.
func all(g *glyphs, s string) bool {
	for _, r := range s {
		if !g.has(r) {
			return false
		}
	}
	return true
}

func onlySpaces(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Zs, r) {
			return false
		}
	}
	return true
}

// invisible tells whether r is a default-ignorable character: drawn as
// nothing by text renderers, so dropped rather than replaced.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
