package documents

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/payments"
)

var updateHashes = flag.Bool("update-hashes", false, "rewrite testdata/pdf-sha256.golden")

// sample is a document rendered from an input held in memory.
type sample struct {
	name   string
	render func() ([]byte, error)
}

// samples are documents of every kind, their texts in every script the
// font covers and some it does not (replaced), accented letters both
// precomposed and decomposed (composite glyphs in the subsets), one
// invoice over three pages.
func samples() []sample {
	inv := benchInvoice()
	scripts := inv
	scripts.Seller.Name = "Ferme du Lac 🥕 Fe\u0301e des Pre\u0301s Œuvre ﬁne"
	scripts.Seller.Address = []string{"חוות האגם 3", "مزرعة البحيرة", "湖の農場"}
	scripts.Buyer.Name = "Épicerie Ζωή Жизнь Կյանք სიცოცხლე"
	scripts.Lines = append([]billing.Line(nil), inv.Lines...)
	scripts.Lines[0].Product = "Tomate ‘cœur de bœuf’ — 1/2 kg ≥ 3 · № 7"

	pages := inv
	pages.Lines, pages.Notes, pages.TotalHT = nil, nil, 0
	pages.VATRate = 0
	for d := range 30 {
		date := fmt.Sprintf("2026-11-%02d", 1+d)
		pages.Notes = append(pages.Notes, billing.Note{Chrono: int64(d + 1), Date: date})
		for p, name := range []string{"Laitue", "Poireau"} {
			l := billing.Line{Position: len(pages.Lines) + 1, Chrono: int64(d + 1), Date: date, ProductID: strings.ToLower(name),
				Product: name, Unit: "un", Quantity: 1200, Price: decimal.Dec(95 + 115*p)}
			l.Amount = billing.Amount(l.Quantity, l.Price)
			pages.Lines = append(pages.Lines, l)
		}
	}
	pages.Total()

	credit := inv
	credit.Kind, credit.Number = billing.KindCredit, "AV-2026-000001"
	credit.Refers = &billing.Reference{InvoiceID: "i", Number: inv.Number, Date: inv.IssueDate}
	credit.Lines = inv.Lines[:1]
	credit.Total()

	farm := accounts.User{ID: "farm", Type: accounts.Producer, Name: "Ferme des Aravis", Legal: "EARL", SIRET: "12345678200010",
		AddressLine1: "12 route des Aravis", AddressLine2: "74220 La Clusaz", Email: "ferme@aravis.fr"}
	shop := accounts.User{ID: "shop", Type: accounts.Distributor, Name: "Épicerie du Lac", SIRET: "98765432400019",
		AddressLine1: "3 quai de la Tournette", AddressLine2: "74000 Annecy"}
	sent := int64(1795000000000)
	note := delivery.Note{
		Order: orders.Order{ID: "order-1", Month: "2026-11-01"},
		Delivery: orders.Delivery{ID: "d", Status: orders.Done, Date: "2026-11-19", Chrono: 1, ClaimStatus: orders.ClaimSent,
			ClaimSentAt: &sent, UpdatedAt: sent},
		Lines: []delivery.NoteLine{
			{Product: "Tomate", Unit: "kg", Price: 250, Expected: 12000, Sent: 11550, Claimed: -250, ClaimType: "quality", ClaimComment: "Tomates éclatées"},
			{Product: "Laitue", Unit: "un", Price: 90, Expected: 4000, Sent: 4000},
		},
		Producer: farm, Shop: shop,
	}
	account := payments.Account{Owed: 3858, Overdue: 2638,
		Documents: []payments.Document{
			{Number: "FA-2026-000001", Kind: billing.KindInvoice, IssueDate: "2026-11-01", DueDate: "2026-11-09", Total: 2638, Balance: 2638, Status: payments.Overdue},
			{Number: "AV-2026-000001", Kind: billing.KindCredit, IssueDate: "2026-12-01", Total: 1055, Status: payments.Imputed, Refers: "FA-2026-000002"},
		},
		Payments: []payments.Payment{{Amount: 362, PaidOn: "2026-12-02", Method: payments.Cheque, Reference: "CHQ 42", Status: payments.Recorded}},
	}
	return []sample{
		{"invoice", func() ([]byte, error) { return Invoice(inv) }},
		{"invoice-scripts", func() ([]byte, error) { return Invoice(scripts) }},
		{"invoice-pages", func() ([]byte, error) { return Invoice(pages) }},
		{"credit-note", func() ([]byte, error) { return Invoice(credit) }},
		{"note", func() ([]byte, error) { return Note(note, delivery.DefaultRules()) }},
		{"statement", func() ([]byte, error) {
			return Statement(farm, shop, account, "2026-12-03", time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC))
		}},
	}
}

// TestPDFBytesUnchanged pins the bytes of the sample documents by their
// SHA-256 (testdata/pdf-sha256.golden, written with go-pdf/fpdf v0.9.0 as
// published, before the font cache): sharing the parsed fonts and their
// subsets between documents changes nothing in any file. A change of the
// documents' content is written there with -update-hashes.
func TestPDFBytesUnchanged(t *testing.T) {
	path := filepath.Join("testdata", "pdf-sha256.golden")
	var got strings.Builder
	for _, s := range samples() {
		pdf, err := s.render()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		sum := sha256.Sum256(pdf)
		fmt.Fprintf(&got, "%s %s\n", s.name, hex.EncodeToString(sum[:]))
	}
	if *updateHashes {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestPDFBytesUnchanged -update-hashes once)", err)
	}
	if got.String() != string(want) {
		t.Fatalf("the documents' bytes changed (if the change of their content is intended, run go test -run TestPDFBytesUnchanged -update-hashes):\n--- got\n%s--- want\n%s",
			got.String(), want)
	}
}

// TestSharedFontsWriteWhatFpdfParsesEachTime renders each sample with the
// fonts parsed for the document (fpdf's AddUTF8FontFromBytes, as before
// the cache), then twice with fonts parsed once (fpdf.ParseUTF8Font: the
// subsets cut for the first document, reused for the second): the same
// bytes.
func TestSharedFontsWriteWhatFpdfParsesEachTime(t *testing.T) {
	shared := addFonts
	defer func() { addFonts = shared }()
	for _, s := range samples() {
		addFonts = func(f *fpdf.Fpdf) {
			f.AddUTF8FontFromBytes(family, "", fontRegular)
			f.AddUTF8FontFromBytes(family, "B", fontBold)
		}
		want, err := s.render()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		regular, err := fpdf.ParseUTF8Font(fontRegular)
		if err != nil {
			t.Fatal(err)
		}
		bold, err := fpdf.ParseUTF8Font(fontBold)
		if err != nil {
			t.Fatal(err)
		}
		addFonts = func(f *fpdf.Fpdf) {
			f.AddUTF8FontParsed(family, "", regular)
			f.AddUTF8FontParsed(family, "B", bold)
		}
		for _, subsets := range []string{"cut", "reused"} {
			got, err := s.render()
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, subsets %s: other bytes with the fonts parsed once than with fonts parsed for it", s.name, subsets)
			}
		}
	}
}

// hashes reads testdata/pdf-sha256.golden.
func hashes(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "pdf-sha256.golden"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, sum, ok := strings.Cut(sc.Text(), " "); ok {
			m[name] = sum
		}
	}
	return m
}

// TestConcurrentRendersAreIdentical renders the samples from several
// goroutines at once, as the invoice run's senders and the daemon do: every
// file is the one pinned (the race detector of make test watches the
// shared fonts).
func TestConcurrentRendersAreIdentical(t *testing.T) {
	want := hashes(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Go(func() {
			ss := samples()
			for i := range ss {
				s := ss[(i+g)%len(ss)]
				pdf, err := s.render()
				if err != nil {
					errs <- fmt.Errorf("%s: %w", s.name, err)
					continue
				}
				if sum := sha256.Sum256(pdf); hex.EncodeToString(sum[:]) != want[s.name] {
					errs <- fmt.Errorf("%s: rendered concurrently, other bytes than pinned", s.name)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
