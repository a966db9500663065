// Package documents renders Primeur's PDF documents — the delivery note
// (bon de livraison, Note), the invoice, credit note and complementary
// invoice as Factur-X PDF/A-3b (Invoice), and the purchase slip and yearly
// certificate of the flat-rate refund (PurchaseSlip, Certificate) — with
// go-pdf/fpdf and an embedded UTF-8 font (DejaVu Sans, see fonts/LICENSE),
// in French: "1 234,50 €", "20 novembre 2026". Rendering is pure: it takes
// what core/delivery, core/billing and core/payments load and returns the
// bytes, with the document's own dates as its creation date so the same
// input gives the same file.
//
// # Any text renders
//
// Names, addresses, products and comments come from users and may hold any
// Unicode text, or bytes that are not UTF-8 at all. Every string a document
// writes goes through one function, drawable, at the point where it is
// drawn (the doc methods of pdf.go), so nothing reaches fpdf that it cannot
// measure and draw:
//
//   - printable.Line's rules first: valid UTF-8, NFC, no control character
//     (a line break becomes a space), no bidirectional formatting;
//   - invisible format characters (zero-width joiners and spaces, variation
//     selectors, soft hyphens) are dropped;
//   - a character the font lacks becomes its compatibility form when the
//     font has that (𝔘 → U, ﬁ → fi), a missing space a space, and anything
//     else Replacement, U+FFFD "�", once per character as a reader sees it
//     (grapheme cluster): "Ferme du Lac 🥕" is written "Ferme du Lac �", a
//     family emoji of five code points one "�", 湖 "�". The same
//     replacement everywhere, in the note and the invoice;
//   - a text is cut at a bound (120 characters on a line of a party's
//     block, 500 in a table cell, 2,000 elsewhere), then wrapped by
//     grapheme cluster (wrap: an accent never leaves its letter) to at most
//     3 lines for a line of a block, 12 for a cell, a field or a paragraph,
//     an ellipsis marking any cut; the footer is cut to the page's width.
//     A 10,000-character name gives a document of one or two pages more
//     at most, in time linear in the text's length;
//   - each line is drawn in display order (visual): right-to-left words
//     are laid out so that Hebrew and Arabic read as stored.
//
// The font covers Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and
// Arabic letters, combining marks and many symbols; not CJK, nor anything
// beyond the Basic Multilingual Plane. No fallback font is embedded: one
// covering CJK weighs over 10 MB (the binary is about 24), and none could
// help beyond the BMP, go-pdf/fpdf v0.9.0 addressing glyphs by 16-bit code
// points (see drawable). Limits: fpdf has no text shaping, so Arabic letters are
// drawn in their isolated forms, not joined; the bidirectional reordering
// is a simplified form of Unicode's (see visual).
package documents

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"

	"primeur/core/printable"
)

var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
)

// fonts are the two fonts parsed once for every document of the process:
// fpdf would otherwise parse each for each document (a third of its time)
// and cut the same subsets again. The vendored fpdf (third_party/fpdf)
// shares them between documents rendered concurrently, keeping its last
// fpdf.UTF8FontSubsets subsets of each, and writes the same bytes as
// AddUTF8FontFromBytes.
var fonts = sync.OnceValues(func() ([2]*fpdf.UTF8Font, error) {
	regular, err := fpdf.ParseUTF8Font(fontRegular)
	if err != nil {
		return [2]*fpdf.UTF8Font{}, fmt.Errorf("documents: DejaVu Sans: %w", err)
	}
	bold, err := fpdf.ParseUTF8Font(fontBold)
	if err != nil {
		return [2]*fpdf.UTF8Font{}, fmt.Errorf("documents: DejaVu Sans Bold: %w", err)
	}
	return [2]*fpdf.UTF8Font{regular, bold}, nil
})

// addFonts adds the regular and bold fonts of family to a document (a
// variable so that a test compares with fonts parsed for each document).
var addFonts = func(f *fpdf.Fpdf) {
	fs, err := fonts()
	if err != nil {
		f.SetError(err)
		return
	}
	f.AddUTF8FontParsed(family, "", fs[0])
	f.AddUTF8FontParsed(family, "B", fs[1])
}

const (
	family   = "dejavu"
	margin   = 15.0
	pageW    = 210.0
	pageH    = 297.0
	bottom   = 18.0 // the automatic page break
	contentW = pageW - 2*margin
	lineH    = 4.6
)

// doc is a document being written. Its methods are the only way the
// documents write text, and each passes it through drawable first: the
// fpdf document is not reachable from note.go and invoice.go.
type doc struct {
	pdf     *fpdf.Fpdf
	created time.Time
	// scratch is pieces' slice, reused from one text to the next.
	scratch []piece
}

// newDoc starts an A4 document with the embedded font, a footer reading
// footer and the page number, and created as its creation date.
func newDoc(title, footer string, created time.Time) *doc {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(true, bottom)
	addFonts(f)
	f.SetTitle(drawable(title, maxBoxLine), true)
	f.SetAuthor("Primeur", true)
	f.SetCreator("Primeur", true)
	f.SetLang("fr-FR")
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetCatalogSort(true)
	f.AliasNbPages("{nb}")
	d := &doc{pdf: f, created: created}
	f.SetFooterFunc(func() {
		f.SetY(-13)
		d.font("", 7)
		f.SetTextColor(110, 110, 110)
		page := fmt.Sprintf(" — page %d/{nb}", f.PageNo())
		d.cell(0, 4, d.fit(footer, contentW-f.GetStringWidth(page+"00"))+page, "", 0, "C", false)
		f.SetTextColor(0, 0, 0)
	})
	f.AddPage()
	return d
}

func (d *doc) font(style string, size float64) { d.pdf.SetFont(family, style, size) }

// bytes finishes the document.
func (d *doc) bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	return buf.Bytes(), nil
}

// pdfA finishes the document as a PDF/A-3b (see pdfA) with x attached as
// its Factur-X XML (none when nil).
func (d *doc) pdfA(m pdfaMeta, x []byte) ([]byte, error) {
	raw, err := d.bytes()
	if err != nil {
		return nil, err
	}
	m.title, m.author = drawable(m.title, maxBoxLine), drawable(m.author, maxBoxLine)
	m.creator, m.producer, m.created = "Primeur", "Primeur (go-pdf/fpdf)", d.created
	return pdfA(raw, m, x)
}

// ln moves down by h, to the left margin.
func (d *doc) ln(h float64) { d.pdf.Ln(h) }

// cell writes text on one line in a cell of width w (0: to the right
// margin) and height h, as fpdf's CellFormat does with the same border,
// ln, align and fill.
func (d *doc) cell(w, h float64, text, border string, ln int, align string, fill bool) {
	d.pdf.CellFormat(w, h, visual(drawable(text, maxText)), border, ln, align, fill, 0, "")
}

// writeLines writes the lines of a wrapped text in the width w from the
// current position, each of height h and aligned as align ("L", "C", "R"),
// in display order (see visual), and ends at the left margin below them. A
// line that does not fit on the page goes to the next.
func (d *doc) writeLines(lines []string, w, h float64, align string) {
	x := d.pdf.GetX()
	for _, l := range lines {
		d.pdf.SetX(x)
		d.pdf.CellFormat(w, h, visual(l), "", 2, align, false, 0, "")
	}
	d.pdf.SetX(margin)
}

// wrapAtMost is wrap cut to n lines, the last ending with an ellipsis
// when the text was longer.
func (d *doc) wrapAtMost(text string, w float64, n int) []string {
	lines := d.wrap(text, w)
	if len(lines) <= n {
		return lines
	}
	lines = lines[:n]
	lines[n-1] = d.ellipsize(lines[n-1], w-2*d.pdf.GetCellMargin())
	return lines
}

// fit returns text as drawable, cut to the width w in the current font,
// an ellipsis marking the cut.
func (d *doc) fit(text string, w float64) string {
	text = drawable(text, maxText)
	if d.pdf.GetStringWidth(text) <= w {
		return text
	}
	return d.ellipsize(text, w)
}

// ellipsize returns the start of a drawable text that fits in the width w
// with an ellipsis after it, and the ellipsis.
func (d *doc) ellipsize(text string, w float64) string {
	room := w - d.pdf.GetStringWidth(printable.Ellipsis)
	end := 0
	for _, p := range d.pieces(text) {
		if room -= p.w; room < 0 {
			break
		}
		end = p.at + len(p.s)
	}
	return strings.TrimRight(text[:end], " ") + printable.Ellipsis
}

// title writes the document's heading and its reference on the right.
func (d *doc) title(title, reference string) {
	d.font("B", 16)
	d.cell(contentW/2, 9, title, "", 0, "L", false)
	d.font("B", 12)
	d.cell(contentW/2, 9, reference, "", 1, "R", false)
	d.pdf.SetDrawColor(60, 120, 60)
	d.pdf.SetLineWidth(0.6)
	d.pdf.Line(margin, d.pdf.GetY()+1, pageW-margin, d.pdf.GetY()+1)
	d.pdf.SetLineWidth(0.2)
	d.pdf.SetDrawColor(0, 0, 0)
	d.ln(4)
}

// field writes "label : value" lines, the label in bold.
func (d *doc) field(label, value string) {
	label = drawable(label, maxBoxLine) + " :"
	d.font("B", 9)
	w := d.pdf.GetStringWidth(label+" ") + 1
	d.cell(w, lineH+0.4, label, "", 0, "L", false)
	d.font("", 9)
	d.writeLines(d.wrapAtMost(drawable(value, maxText), contentW-w, maxTextLines), contentW-w, lineH+0.4, "L")
}

// paragraph writes wrapped text.
func (d *doc) paragraph(text string, size float64) {
	d.font("", size)
	d.writeLines(d.wrapAtMost(drawable(text, maxText), contentW, maxTextLines), contentW, size*0.5, "L")
}

// heading writes a small section heading.
func (d *doc) heading(text string) {
	d.ln(2)
	d.font("B", 10)
	d.cell(contentW, 6, text, "", 1, "L", false)
}

// total writes a row of the totals, right-aligned: a label and an amount,
// in bold on a filled background when bold.
func (d *doc) total(label, value string, bold bool) {
	style := ""
	if bold {
		style = "B"
	}
	d.pdf.SetFillColor(236, 244, 236)
	d.pdf.SetX(margin + contentW - 90)
	d.font(style, 9.5)
	d.cell(55, 6, label, "1", 0, "L", bold)
	d.cell(35, 6, value, "1", 1, "R", bold)
}

// box is a titled block of lines.
type box struct {
	title string
	lines []string
	// minH is the least height of the frame (a space to write in).
	minH float64
	// png, when set, is a picture drawn under the lines, imageH high (a
	// signature).
	png []byte
}

// imageH is the height of a box's picture, mm.
const imageH = 16.0

// boxes writes blocks side by side, each in a bordered frame, and moves
// below the tallest.
func (d *doc) boxes(bs ...box) {
	const gap = 6.0
	w := (contentW - gap*float64(len(bs)-1)) / float64(len(bs))
	// Wrap and measure first, so every frame has the height of the
	// tallest.
	d.font("", 8.5)
	lines := make([][]string, len(bs))
	maxH := 0.0
	for i, b := range bs {
		for _, l := range b.lines {
			lines[i] = append(lines[i], d.wrapAtMost(drawable(l, maxBoxLine), w-2, maxBoxLines)...)
		}
		h := 7 + float64(len(lines[i]))*lineH + 2
		if b.png != nil {
			h += imageH + 1
		}
		maxH = max(maxH, h, b.minH)
	}
	top := d.pdf.GetY()
	if top+maxH > pageH-20 {
		d.pdf.AddPage()
		top = d.pdf.GetY()
	}
	for i, b := range bs {
		x := margin + float64(i)*(w+gap)
		d.pdf.SetFillColor(236, 244, 236)
		d.pdf.Rect(x, top, w, maxH, "D")
		d.pdf.Rect(x, top, w, 6, "FD")
		d.pdf.SetXY(x+1, top+0.5)
		d.font("B", 9)
		d.cell(w-2, 5, b.title, "", 2, "L", false)
		d.pdf.SetXY(x+1, top+7)
		d.font("", 8.5)
		d.pdf.SetX(x + 1)
		d.writeLines(lines[i], w-2, lineH, "L")
		if b.png != nil {
			name := fmt.Sprintf("box-%d-%p", i, b.png)
			opts := fpdf.ImageOptions{ImageType: "PNG"}
			d.pdf.RegisterImageOptionsReader(name, opts, bytes.NewReader(b.png))
			d.pdf.ImageOptions(name, x+2, top+7+float64(len(lines[i]))*lineH+1, 0, imageH, false, opts, 0, "")
		}
	}
	d.pdf.SetXY(margin, top+maxH+4)
}

// column of a table.
type column struct {
	title string
	width float64
	align string
}

// table writes a table with a header row repeated on every page.
func (d *doc) table(cols []column, rows [][]string) {
	header := func() {
		d.font("B", 8)
		d.pdf.SetFillColor(236, 244, 236)
		for _, c := range cols {
			d.cell(c.width, 6, c.title, "1", 0, c.align, true)
		}
		d.ln(-1)
	}
	header()
	d.font("", 8.5)
	for _, r := range rows {
		// Height of the row: the tallest wrapped cell.
		cells := make([][]string, len(cols))
		h := 5.5
		for i, c := range cols {
			cells[i] = d.wrapAtMost(drawable(r[i], maxCell), c.width, maxCellLines)
			if n := len(cells[i]); n > 1 {
				h = max(h, float64(n)*lineH+1)
			}
		}
		if d.pdf.GetY()+h > pageH-bottom {
			d.pdf.AddPage()
			header()
			d.font("", 8.5)
		}
		x, y := d.pdf.GetXY()
		for i, c := range cols {
			d.pdf.Rect(x, y, c.width, h, "D")
			d.pdf.SetXY(x, y+0.5)
			d.writeLines(cells[i], c.width, lineH, c.align)
			x += c.width
			d.pdf.SetXY(x, y)
		}
		d.pdf.SetXY(margin, y+h)
	}
}

// addressLines joins non-empty parts.
func addressLines(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// orUnset shows a missing identifier explicitly.
func orUnset(s string) string {
	if strings.TrimSpace(s) == "" {
		return "non renseigné"
	}
	return s
}
