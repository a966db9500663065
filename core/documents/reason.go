package documents

import (
	"primeur/core/billing"
	"primeur/core/facturx"
	"primeur/core/printable"
)

// The reason a credit note or complementary invoice states (PRODUCT §16
// "Credit notes"): each line's claim, as stored when the document was
// issued (billing.Reason) — "réfaction pour défaut de qualité" or a
// quantity correction, and the producer's comment —, so that a credit note
// on fresh produce reads as the réfaction it is and never as a price
// rebate (art. L443-2 of the Code de commerce). The page says it under the
// lines ("Motif : …"); the Factur-X XML in each line's note (BT-127) and in
// a document note of subject ACD (UNTDID 4451 "reason", BT-21/BT-22).

// noteReason is the UNTDID 4451 subject of the document's note stating
// its reason.
const noteReason = "ACD"

// reason is the stated reason of one line: the words of its claim's type
// and the comment, "réfaction pour défaut de qualité — « tomates
// abîmées »"; empty for a line without a stored reason.
func reason(kind string, l billing.Line) string {
	text := l.Text(kind)
	if text == "" {
		return ""
	}
	if c := printable.Line(l.ClaimComment); c != "" {
		text += " — «\u00a0" + c + "\u00a0»"
	}
	return text
}

// motive is one "Motif" of a document: for a product, or for every line
// when Product is empty.
type motive struct {
	Product, Text string
}

// motives are the reasons of a settling document's lines: one when every
// line has the same, else one per line that has one, by product. None for
// an invoice, or a document issued before reasons were stored.
func motives(inv billing.Invoice) []motive {
	if inv.Kind != billing.KindCredit && inv.Kind != billing.KindComplement {
		return nil
	}
	var out []motive
	same := true
	for _, l := range inv.Lines {
		r := reason(inv.Kind, l)
		if r == "" {
			continue
		}
		if len(out) > 0 && out[0].Text != r {
			same = false
		}
		out = append(out, motive{Product: l.Product, Text: r})
	}
	if same && len(out) > 0 && len(out) == len(inv.Lines) {
		return []motive{{Text: out[0].Text}}
	}
	return out
}

// drawMotives writes the motives under the lines of a settling document.
func drawMotives(d *doc, inv billing.Invoice) {
	ms := motives(inv)
	if len(ms) == 0 {
		return
	}
	d.ln(1)
	for _, m := range ms {
		label := "Motif"
		if m.Product != "" {
			label += " — " + m.Product
		}
		d.field(label, m.Text)
	}
}

// xmlMotives carries the reasons into the Factur-X XML of a settling
// document: each line's note (BT-127) after its delivery note, and a
// document note of subject ACD naming the delivery note corrected and the
// reasons.
func xmlMotives(doc *facturx.Document, inv billing.Invoice) {
	ms := motives(inv)
	if len(ms) == 0 {
		return
	}
	for i, l := range inv.Lines {
		if i >= len(doc.Lines) {
			break
		}
		if r := reason(inv.Kind, l); r != "" {
			note := doc.Lines[i].Note
			if note != "" {
				note += " — "
			}
			doc.Lines[i].Note = note + "Motif : " + r
		}
	}
	text := "Motif"
	if len(inv.Notes) == 1 {
		n := inv.Notes[0]
		text = "Correction du bon de livraison " + billing.NoteNumber(n.Chrono) + " du " + Day(n.Date) + ". Motif"
	}
	for i, m := range ms {
		sep := " : "
		if i > 0 {
			sep = " ; "
		}
		text += sep
		if m.Product != "" {
			text += printable.Line(m.Product) + " : "
		}
		text += m.Text
	}
	doc.Notes = append(doc.Notes, facturx.Note{Subject: noteReason, Content: text + "."})
}
