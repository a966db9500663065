package documents_test

import (
	"primeur/core/documents/pdftest"

	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/facturx/facturxtest"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/core/vat"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

var (
	ctx   = context.Background()
	rules = delivery.DefaultRules()
	at    = tradetest.At
)

func TestFrench(t *testing.T) {
	for got, want := range map[string]string{
		documents.Day("2026-11-20"):                   "20 novembre 2026",
		documents.Day("2026-12-01"):                   "1er décembre 2026",
		documents.Day("2027-08-15"):                   "15 août 2027",
		documents.Day("not a date"):                   "not a date",
		documents.Month("2026-02-01"):                 "février 2026",
		documents.ShortDay("2026-11-20"):              "20/11",
		documents.ShortDay("2026-11"):                 "2026-11",
		documents.Euros(123450):                       "1\u202f234,50\u00a0€",
		documents.Euros(-5):                           "-0,05\u00a0€",
		documents.Quantity(1250, "kg"):                "12,50",
		documents.Quantity(300000, "un"):              "3\u202f000",
		documents.Quantity(150, "un"):                 "1,50",
		documents.Signed(-350, "kg"):                  "−3,50",
		documents.Signed(200, "un"):                   "+2",
		documents.Percent(550):                        "5,5\u00a0%",
		documents.IBAN("FR7630006000011234567890189"): "FR76 3000 6000 0112 3456 7890 189",
		documents.UnitLabel("un"):                     "pièce",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// golden compares text with testdata/name.golden (rewritten with -update),
// the order's id (which depends on the tests run before) replaced.
func golden(t *testing.T, name, text, orderID string) {
	t.Helper()
	text = strings.ReplaceAll(text, orderID, "ORDER-ID")
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if string(want) != text {
		t.Fatalf("%s differs from the golden file:\n--- got\n%s--- want\n%s", name, text, want)
	}
}

// mustContain checks mentions one by one, for a readable failure.
func mustContain(t *testing.T, text string, mentions ...string) {
	t.Helper()
	flat := strings.ReplaceAll(text, "\n", " ") // mentions may wrap
	for _, m := range mentions {
		if !strings.Contains(flat, m) {
			t.Errorf("missing %q", m)
		}
	}
}

// scene is a November order of Ferme des Aravis to Épicerie du Lac with a
// planned delivery, a done delivery with a claim, and a cancelled one.
type scene struct {
	db                   *store.DB
	w                    *tradetest.World
	order, planned, done string
}

func newScene(t *testing.T) scene {
	db := storetest.SQLite(t)
	w := tradetest.New(t, db)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	done := w.Delivery(o, "2026-11-19", orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 12000, Sent: tradetest.Dec(11550)},
		tradetest.L{Product: "laitue", Price: 90, Expected: 4000, Sent: tradetest.Dec(4000)})
	w.Delivery(o, "2026-11-21", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 12000})
	planned := w.Delivery(o, "2026-11-26", orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 123456},
		tradetest.L{Product: "courgette", Price: 180, Expected: 2500})
	return scene{db: db, w: w, order: o, planned: planned, done: done}
}

// lockPlanned locks the planned delivery, as the deliveries job does at
// its lock.
func (s scene) lockPlanned(t *testing.T) {
	t.Helper()
	if ids, err := rules.LockDue(ctx, s.db, at(2026, 11, 26, 12, 0)); err != nil || len(ids) != 1 || ids[0] != s.planned {
		t.Fatalf("locked %v, %v", ids, err)
	}
}

func (s scene) note(t *testing.T, id string) []byte {
	t.Helper()
	n, err := delivery.LoadNote(ctx, s.db, s.order, id)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := documents.Note(n, rules)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := documents.Note(n, rules)
	if !bytes.Equal(pdf, again) {
		t.Fatal("rendering the same note twice gave different bytes")
	}
	return pdf
}

func TestDeliveryNotes(t *testing.T) {
	s := newScene(t)
	text := pdftest.Lines(t, s.note(t, s.planned))
	mustContain(t, text,
		"Bon de livraison", "BL-000003", "Date de livraison : 26 novembre 2026",
		"Livraison prévue — bon modifiable par le magasin jusqu'à 12h le jour de la livraison",
		"Commande : novembre 2026 — référence "+s.order,
		"Lieu de livraison : Épicerie du Lac, 3 quai de la Tournette, 74000 Annecy",
		"Expéditeur (producteur)", "Ferme des Aravis", "SIRET : 12345678200010",
		"Destinataire (magasin)", "Épicerie du Lac", "SIRET : 98765432400019",
		"Tomate", "1 234,56", "2,50 €", "Courgette", "25,00",
		"Réserves à la réception", "Signature du destinataire")
	if strings.Contains(text, "Demande d'avoir") {
		t.Error("a note without claim shows a claim section")
	}
	golden(t, "note-planned", text, s.order)

	qty := -2.5
	kind, comment := "quality", "Tomates éclatées"
	if err := s.db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := rules.SendClaim(ctx, tx, s.w.Farm.ID, s.order, s.done, delivery.Claim{Lines: []delivery.LineClaim{
			{ID: s.w.Line(s.done, "tomate"), QuantityClaimed: &qty, ClaimType: &kind, ClaimComment: &comment},
		}}, at(2026, 11, 20, 10, 0))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	text = pdftest.Lines(t, s.note(t, s.done))
	mustContain(t, text,
		"BL-000001", "Date de livraison : 19 novembre 2026", "Livraison effectuée",
		"120,00", "115,50", "−4,50", // ordered, delivered, gap
		"Demande d'avoir", "Statut : envoyée le 20 novembre 2026, en attente de la réponse du magasin",
		"−2,50 kg", "Qualité", "Tomates éclatées",
		"le magasin est facturé de la quantité livrée augmentée de la quantité réclamée")
	golden(t, "note-claim", text, s.order)
}

func issue(t *testing.T, db *store.DB, order string) billing.Invoice {
	t.Helper()
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := billing.Issue(ctx, tx, order, at(2026, 12, 1, 6, 0), tradetest.Paris)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	inv, err := billing.ForOrder(ctx, db, order)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func render(t *testing.T, inv billing.Invoice) string {
	t.Helper()
	pdf, err := documents.Invoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, inv.Number)
	facturxtest.Keep(t, documents.InvoiceFileName(inv.Number), pdf)
	again, _ := documents.Invoice(inv)
	if !bytes.Equal(pdf, again) {
		t.Fatal("rendering the same invoice twice gave different bytes")
	}
	return pdftest.Lines(t, pdf)
}

func TestInvoiceMentions(t *testing.T) {
	s := newScene(t)
	s.lockPlanned(t)
	inv := issue(t, s.db, s.order)
	text := render(t, inv)
	mustContain(t, text,
		// Number, dates, period, order.
		"Facture", "FA-2026-000001", "Date d'émission : 1er décembre 2026", "Période facturée : novembre 2026",
		"Date d'échéance : 20 décembre 2026",
		// Seller: identity, legal form and capital, address, SIRET, VAT number, APE.
		"Vendeur", "Ferme des Aravis", "EARL au capital de 15 000 €", "12 route des Aravis", "74220 La Clusaz",
		"SIREN : 123456782 — SIRET : 12345678200010", "N° TVA intracommunautaire : FR11123456782", "Code APE : 0113Z",
		// Buyer: billing address, SIREN and SIRET, VAT number; delivery address apart.
		"Acheteur", "Épicerie du Lac", "SARL au capital de 8 000 €", "BP 42", "74001 Annecy Cedex",
		"SIREN : 987654324 — SIRET : 98765432400019", "N° TVA intracommunautaire : FR14987654324", "Code APE : 4721Z",
		"Adresse de livraison : 3 quai de la Tournette, 74000 Annecy",
		// The delivery notes covered (not the cancelled one).
		"Bons de livraison : BL-000001 du 19 novembre 2026, BL-000003 du 26 novembre 2026",
		// Lines and totals.
		"Quantité", "Unité", "Prix unitaire HT", "TVA", "Montant HT", "5,5 %",
		"Laitue", "pièce", "0,90 €", "36,00 €", "Tomate", "115,50", "288,75 €", "1 234,56", "3 086,40 €", "Courgette", "45,00 €",
		"Total HT", "3 456,15 €", "TVA 5,5 %", "190,09 €", "Total TTC — net à payer", "3 646,24 €",
		// Payment: IBAN/BIC, terms, penalties and the 40 € indemnity, mandate.
		"IBAN FR76 3000 6000 0112 3456 7890 189 — BIC AGRIFRPP882",
		"Pas d'escompte pour paiement anticipé",
		"au taux de refinancement le plus récent de la Banque centrale européenne majoré de 10 points",
		"indemnité forfaitaire pour frais de recouvrement de 40 € (art. D441-5 du Code de commerce)",
		"au nom et pour le compte de Ferme des Aravis, en vertu d'un mandat de facturation (art. 289 I-2 du CGI)",
		"Catégorie de l'opération : livraison de biens")
	if strings.Contains(text, "293 B") {
		t.Error("a VAT-registered producer's invoice mentions art. 293 B")
	}
	golden(t, "invoice-vat", text, s.order)

	// Whatever happens to profiles afterwards, the invoice reads the same.
	s.w.Exec(`UPDATE users SET name = 'Autre nom', address_line1 = 'ailleurs' WHERE 1 = 1`)
	again, err := billing.ForOrder(ctx, s.db, s.order)
	if err != nil {
		t.Fatal(err)
	}
	if render(t, again) != text {
		t.Fatal("the invoice changed after a profile change")
	}
}

func TestInvoiceWithoutVATOverSeveralPages(t *testing.T) {
	db := storetest.SQLite(t)
	w := tradetest.New(t, db)
	farm := w.User(accounts.User{Type: accounts.Producer, Email: "micro@ferme.fr", Name: "Micro-ferme Le Potager", Legal: "EI",
		VATRegime: vat.Franchise, AddressLine1: "Chemin du Lac", AddressLine2: "74290 Talloires", SIRET: "84261530400016",
		IBAN: "FR7610000000000000000000001", BIC: "CCBPFRPPXXX"})
	shop := w.User(accounts.User{Type: accounts.Distributor, Email: "primeur@ville.fr", Name: "Le Primeur de la Ville",
		AddressLine1: "1 rue Royale", AddressLine2: "74000 Annecy"})
	o := w.Order(farm, shop, "2026-11-01")
	for d := 2; d <= 30; d++ {
		w.Delivery(o, fmt.Sprintf("2026-11-%02d", d), orders.Done,
			tradetest.L{Product: "laitue", Price: 95, Expected: 1200},
			tradetest.L{Product: "poireau", Price: 210, Expected: 850})
	}
	inv := issue(t, db, o)
	if inv.TotalHT != 29*(1140+1785) || inv.TotalVAT != 0 || inv.TotalTTC != inv.TotalHT {
		t.Fatalf("totals %v %v %v", inv.TotalHT, inv.TotalVAT, inv.TotalTTC)
	}
	text := render(t, inv)
	mustContain(t, text,
		"TVA non applicable, art. 293 B du CGI", "TVA non applicable", "Total TTC — net à payer", "848,25 €",
		"N° TVA intracommunautaire : non renseigné", "Code APE : non renseigné",
		"BL-000029 du 30 novembre 2026", "page 1/3", "page 2/3", "page 3/3")
	if strings.Contains(text, "5,5 %") {
		t.Error("an exempt invoice shows the 5.5 % rate")
	}
	// The table header is repeated on the second page.
	if strings.Count(text, "Prix unitaire HT") < 2 {
		t.Errorf("table header %d times", strings.Count(text, "Prix unitaire HT"))
	}
	golden(t, "invoice-exempt", text, o)
}

// hasLine checks that text has a line that is line.
func hasLine(t *testing.T, text, line string) {
	t.Helper()
	if !slices.Contains(strings.Split(text, "\n"), line) {
		t.Errorf("no line %q in:\n%s", line, text)
	}
}

// hostileNames are names a user may register, each with the form the
// documents write it in (package documentation, "Any text renders"), which
// their text must extract back as.
var hostileNames = []struct{ name, in, want string }{
	{"emoji", "Ferme du Lac 🥕", "Ferme du Lac �"},
	{"astral letters", "Ferme 𝔘𝔫𝔦𝔬𝔫", "Ferme Union"},
	{"arabic", "مزرعة البحيرة", "مزرعة البحيرة"},
	{"hebrew", "חוות האגם", "חוות האגם"},
	{"hebrew in french", "Ferme חוות האגם", "Ferme חוות האגם"},
	{"cjk", "湖の農場", "����"},
	{"combining marks", "Fe\u0301e des Pre\u0301s", "Fée des Prés"},
	{"stacked combining marks", "Ferme Z\u0335a\u0334l", "Ferme Z\u0335a\u0334l"},
	{"zero-width joiners", "Ferme 👨\u200d👩\u200d👧 familiale", "Ferme � familiale"},
	{"joiner between letters", "Fer\u200dme du\u200c Lac", "Ferme du Lac"},
	{"control characters", "Ferme\x1b[31m Rouge\r\nBcc: x@y.fr\x07", "Ferme[31m Rouge Bcc: x@y.fr"},
	{"bidi override", "Ferme \u202eeuqitsuR\u202c", "Ferme euqitsuR"},
	{"invalid utf-8", "Ferme \xff\xfe du Lac", "Ferme � du Lac"},
}

// extractedMarks are the directional marks pdftotext writes around
// right-to-left text.
var extractedMarks = strings.NewReplacer("\u202a", "", "\u202b", "", "\u202c", "", "\u202d", "", "\u202e", "", "\u200e", "", "\u200f", "")

// TestHostileNamesRenderEverywhere gives the producer (and so the seller)
// each hostile name: the note and the invoice are valid PDFs, and their
// text reads the name back in its documented form, in the producer's
// block and in the invoice's footer and terms.
func TestHostileNamesRenderEverywhere(t *testing.T) {
	s := newScene(t)
	s.lockPlanned(t)
	note, err := delivery.LoadNote(ctx, s.db, s.order, s.planned)
	if err != nil {
		t.Fatal(err)
	}
	inv := issue(t, s.db, s.order)
	for _, tt := range hostileNames {
		t.Run(tt.name, func(t *testing.T) {
			n := note
			n.Producer.Name = tt.in
			n.Lines = append([]delivery.NoteLine(nil), note.Lines...)
			n.Lines[0].Product = tt.in
			pdf, err := documents.Note(n, rules)
			if err != nil {
				t.Fatal(err)
			}
			validPDF(t, pdf)
			text := extractedMarks.Replace(pdftest.Lines(t, pdf))
			hasLine(t, text, tt.want)
			mustContain(t, text, "Épicerie du Lac")

			i := inv
			i.Seller.Name = tt.in
			pdf, err = documents.Invoice(i)
			if err != nil {
				t.Fatal(err)
			}
			validPDF(t, pdf)
			pdfA(t, pdf, i.Number)
			facturxtest.Keep(t, documents.InvoiceFileName(i.Number), pdf)
			text = extractedMarks.Replace(pdftest.Lines(t, pdf))
			hasLine(t, text, tt.want)
			mustContain(t, text, "titulaire "+tt.want)
			// pdftotext gives the dash after a right-to-left name to the
			// name's run: the footer is checked word by word.
			footer := text[strings.Index(text, "Primeur — facture FA-2026-000001 émise au nom de "):]
			footer = footer[:strings.Index(footer, "\n")]
			for _, word := range strings.Fields(tt.want) {
				if !strings.Contains(footer, word) || !strings.HasSuffix(footer, "page 1/1") {
					t.Errorf("footer %q lacks %q", footer, word)
				}
			}
		})
	}
}

// TestTenThousandCharacterNames fills every text of a note and an invoice
// with 10,000 characters: valid PDFs of the usual length, each text cut
// with an ellipsis.
func TestTenThousandCharacterNames(t *testing.T) {
	s := newScene(t)
	s.lockPlanned(t)
	huge := strings.Repeat("Ferme 🥕 du Lac ", 625) // 10,000 characters
	s.w.Exec(`UPDATE users SET name = ?, legal = ?, address_line1 = ?, address_line2 = ?, address_line3 = ?, certification = ?`,
		huge, huge, huge, huge, huge, huge)
	s.w.Exec(`UPDATE products SET name = ? || id`, huge)
	n, err := delivery.LoadNote(ctx, s.db, s.order, s.planned)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := documents.Note(n, rules)
	if err != nil {
		t.Fatal(err)
	}
	if pages := validPDF(t, pdf); pages > 2 {
		t.Errorf("a note of %d pages", pages)
	}
	mustContain(t, pdftest.Lines(t, pdf), "Ferme � du Lac Ferme", "…", "Réserves à la réception")

	inv := issue(t, s.db, s.order)
	pdf, err = documents.Invoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	if pages := validPDF(t, pdf); pages > 3 {
		t.Errorf("an invoice of %d pages", pages)
	}
	mustContain(t, pdftest.Lines(t, pdf), "Ferme � du Lac Ferme", "…", "Total TTC — net à payer")
}

// TestCreditNoteMentions: a claim accepted on a delivery of the order is
// settled, with the invoice, by a credit note: its own number, the
// invoice it corrects, the credited line with its VAT, every mention of
// an invoice; the page and the Factur-X XML say the same.
func TestCreditNoteMentions(t *testing.T) {
	s := newScene(t)
	s.lockPlanned(t)
	s.w.Exec(`UPDATE delivery_lines SET quantity_claimed = -250, claim_type = 'quality' WHERE delivery_id = ? AND product_id = 'tomate'`, s.done)
	s.w.Exec(`UPDATE deliveries SET claim_status = 'accepted' WHERE id = ?`, s.done)
	inv := issue(t, s.db, s.order)
	credits, err := billing.Credits(ctx, s.db, s.order, "", "")
	if err != nil || len(credits) != 1 {
		t.Fatalf("credit notes %+v, %v", credits, err)
	}
	credit, err := billing.GetCredit(ctx, s.db, credits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	text := render(t, credit)
	mustContain(t, text,
		"Avoir", "AV-2026-000001", "Date d'émission : 1er décembre 2026", "Facture corrigée : "+inv.Number+" du 1er décembre 2026",
		"Bon de livraison corrigé : BL-000001 du 19 novembre 2026", "Motif : réfaction pour défaut de qualité",
		"Vendeur", "EARL au capital de 15 000 €", "SIREN : 123456782 — SIRET : 12345678200010",
		"Acheteur", "SIREN : 987654324 — SIRET : 98765432400019",
		"Tomate", "2,50", "5,5 %", "6,25 €", "Total HT", "TVA 5,5 %", "0,34 €", "Total TTC — montant de l'avoir", "6,59 €",
		"Imputation : à déduire du règlement de la facture "+inv.Number,
		"Avoir émis par Primeur au nom et pour le compte de Ferme des Aravis",
		"indemnité forfaitaire pour frais de recouvrement de 40 €")
	if strings.Contains(text, "Date d'échéance") || strings.Contains(text, "IBAN") {
		t.Error("a credit note asks for a payment")
	}
	golden(t, "credit-note", text, s.order)

	// The XML says what the page says.
	x, err := documents.InvoiceXML(credit)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<ram:TypeCode>381</ram:TypeCode>", "<ram:ID>AV-2026-000001</ram:ID>",
		"<ram:IssuerAssignedID>" + inv.Number + "</ram:IssuerAssignedID>", `<udt:DateTimeString format="102">20261201</udt:DateTimeString>`,
		`<ram:BilledQuantity unitCode="KGM">2.50</ram:BilledQuantity>`, "<ram:LineTotalAmount>6.25</ram:LineTotalAmount>",
		`<ram:TaxTotalAmount currencyID="EUR">0.34</ram:TaxTotalAmount>`, "<ram:GrandTotalAmount>6.59</ram:GrandTotalAmount>",
		`<ram:ID schemeID="0002">123456782</ram:ID>`, `<ram:ID schemeID="0002">987654324</ram:ID>`} {
		if !strings.Contains(string(x), want) {
			t.Errorf("credit note XML without %s", want)
		}
	}
	// And the invoice's XML its page: totals, due date, delivery address.
	x, err = documents.InvoiceXML(inv)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<ram:TypeCode>380</ram:TypeCode>", "<ram:GrandTotalAmount>" + amount(inv.TotalTTC) + "</ram:GrandTotalAmount>",
		`<udt:DateTimeString format="102">` + strings.ReplaceAll(inv.DueDate, "-", "") + `</udt:DateTimeString>`,
		"<ram:LineOne>3 quai de la Tournette</ram:LineOne>", "<ram:CityName>Annecy</ram:CityName>",
		"<ram:SubjectCode>PMT</ram:SubjectCode>", "<ram:SubjectCode>PMD</ram:SubjectCode>", "<ram:SubjectCode>AAB</ram:SubjectCode>"} {
		if !strings.Contains(string(x), want) {
			t.Errorf("invoice XML without %s", want)
		}
	}
}

// amount writes cents as the XML does: "3646.24".
func amount(d decimal.Dec) string { return fmt.Sprintf("%d.%02d", int64(d)/100, int64(d)%100) }

// TestStatement: the statement lists each document with what is left,
// the payments, and what is owed and overdue.
func TestStatement(t *testing.T) {
	s := newScene(t)
	a := payments.Account{
		Owed: 3858, Overdue: 2638,
		Documents: []payments.Document{
			{Number: "FA-2026-000001", Kind: billing.KindInvoice, IssueDate: "2026-11-01", DueDate: "2026-11-09", Total: 2638, Balance: 2638, Status: payments.Overdue},
			{Number: "AV-2026-000001", Kind: billing.KindCredit, IssueDate: "2026-12-01", Total: 1055, Status: payments.Imputed, Refers: "FA-2026-000002"},
			{Number: "FA-2026-000002", Kind: billing.KindInvoice, IssueDate: "2026-12-01", DueDate: "2026-12-10", Total: 5275, Credited: 1055, Paid: 362, Balance: 3858, Status: payments.Partly},
		},
		Payments: []payments.Payment{{Amount: 362, PaidOn: "2026-12-02", Method: payments.Cheque, Reference: "CHQ 42", Status: payments.Recorded}},
	}
	pdf, err := documents.Statement(s.w.Farm, s.w.Shop, a, "2026-12-03", at(2026, 12, 3, 9, 0))
	if err != nil {
		t.Fatal(err)
	}
	validPDF(t, pdf)
	mustContain(t, pdftest.Lines(t, pdf), "Relevé de compte", "au 3 décembre 2026", "Ferme des Aravis", "Épicerie du Lac",
		"Facture FA-2026-000001", "En retard", "Avoir AV-2026-000001", "FA-2026-000002)", "−10,55 €", "Payée en partie",
		"Chèque", "CHQ 42", "Reste à payer", "38,58 €", "dont en retard", "26,38 €")
}
