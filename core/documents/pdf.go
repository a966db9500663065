// Package documents renders Primeur's PDF documents — the delivery note
// (bon de livraison) and the invoice — with go-pdf/fpdf and an embedded
// UTF-8 font (DejaVu Sans, see fonts/LICENSE), in French: "1 234,50 €",
// "20 novembre 2026". Rendering is pure: it takes what core/delivery and
// core/billing load and returns the bytes, with the document's own dates as
// its creation date so the same input gives the same file.
package documents

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
)

const (
	family   = "dejavu"
	margin   = 15.0
	pageW    = 210.0
	contentW = pageW - 2*margin
	lineH    = 4.6
)

// doc is a document being written.
type doc struct {
	*fpdf.Fpdf
}

// newDoc starts an A4 document with the embedded font, a footer reading
// footer and the page number, and created as its creation date.
func newDoc(title, footer string, created time.Time) *doc {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(true, 18)
	f.AddUTF8FontFromBytes(family, "", fontRegular)
	f.AddUTF8FontFromBytes(family, "B", fontBold)
	f.SetTitle(title, true)
	f.SetAuthor("Primeur", true)
	f.SetCreator("Primeur", true)
	f.SetLang("fr-FR")
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetCatalogSort(true)
	f.AliasNbPages("{nb}")
	d := &doc{Fpdf: f}
	f.SetFooterFunc(func() {
		f.SetY(-13)
		d.font("", 7)
		f.SetTextColor(110, 110, 110)
		f.CellFormat(0, 4, fmt.Sprintf("%s — page %d/{nb}", footer, f.PageNo()), "", 0, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
	})
	f.AddPage()
	return d
}

func (d *doc) font(style string, size float64) { d.SetFont(family, style, size) }

// bytes finishes the document.
func (d *doc) bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.Output(&buf); err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	return buf.Bytes(), nil
}

// title writes the document's heading and its reference on the right.
func (d *doc) title(title, reference string) {
	d.font("B", 16)
	d.CellFormat(contentW/2, 9, title, "", 0, "L", false, 0, "")
	d.font("B", 12)
	d.CellFormat(contentW/2, 9, reference, "", 1, "R", false, 0, "")
	d.SetDrawColor(60, 120, 60)
	d.SetLineWidth(0.6)
	d.Line(margin, d.GetY()+1, pageW-margin, d.GetY()+1)
	d.SetLineWidth(0.2)
	d.SetDrawColor(0, 0, 0)
	d.Ln(4)
}

// field writes "label : value" lines, the label in bold.
func (d *doc) field(label, value string) {
	d.font("B", 9)
	w := d.GetStringWidth(label+" : ") + 1
	d.CellFormat(w, lineH+0.4, label+" :", "", 0, "L", false, 0, "")
	d.font("", 9)
	d.MultiCell(contentW-w, lineH+0.4, value, "", "L", false)
}

// paragraph writes wrapped text.
func (d *doc) paragraph(text string, size float64) {
	d.font("", size)
	d.MultiCell(contentW, size*0.5, text, "", "L", false)
}

// heading writes a small section heading.
func (d *doc) heading(text string) {
	d.Ln(2)
	d.font("B", 10)
	d.CellFormat(contentW, 6, text, "", 1, "L", false, 0, "")
}

// box is a titled block of lines.
type box struct {
	title string
	lines []string
	// minH is the least height of the frame (a space to write in).
	minH float64
}

// boxes writes blocks side by side, each in a bordered frame, and moves
// below the tallest.
func (d *doc) boxes(bs ...box) {
	const gap = 6.0
	w := (contentW - gap*float64(len(bs)-1)) / float64(len(bs))
	top := d.GetY()
	// Measure first, so every frame has the height of the tallest.
	heights := make([]float64, len(bs))
	maxH := 0.0
	for i, b := range bs {
		h := 7.0
		d.font("", 8.5)
		for _, l := range b.lines {
			h += float64(len(d.SplitText(l, w-2))) * lineH
		}
		heights[i] = max(h+2, b.minH)
		maxH = max(maxH, heights[i])
	}
	if top+maxH > 297-20 {
		d.AddPage()
		top = d.GetY()
	}
	for i, b := range bs {
		x := margin + float64(i)*(w+gap)
		d.SetFillColor(236, 244, 236)
		d.Rect(x, top, w, maxH, "D")
		d.Rect(x, top, w, 6, "FD")
		d.SetXY(x+1, top+0.5)
		d.font("B", 9)
		d.CellFormat(w-2, 5, b.title, "", 2, "L", false, 0, "")
		d.SetXY(x+1, top+7)
		d.font("", 8.5)
		for _, l := range b.lines {
			d.SetX(x + 1)
			d.MultiCell(w-2, lineH, l, "", "L", false)
		}
	}
	d.SetXY(margin, top+maxH+4)
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
		d.SetFillColor(236, 244, 236)
		for _, c := range cols {
			d.CellFormat(c.width, 6, c.title, "1", 0, c.align, true, 0, "")
		}
		d.Ln(-1)
	}
	header()
	d.font("", 8.5)
	_, pageH := d.GetPageSize()
	_, _, _, bottom := d.GetMargins()
	for _, r := range rows {
		// Height of the row: the tallest wrapped cell.
		h := 5.5
		for i, c := range cols {
			if n := len(d.SplitText(r[i], c.width)); n > 1 {
				h = max(h, float64(n)*lineH+1)
			}
		}
		if d.GetY()+h > pageH-bottom {
			d.AddPage()
			header()
			d.font("", 8.5)
		}
		x, y := d.GetXY()
		for i, c := range cols {
			d.Rect(x, y, c.width, h, "D")
			d.SetXY(x, y+0.5)
			d.MultiCell(c.width, lineH, r[i], "", c.align, false)
			x += c.width
			d.SetXY(x, y)
		}
		d.SetXY(margin, y+h)
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
