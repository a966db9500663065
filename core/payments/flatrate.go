package payments

// The buyer's documents of the agricultural flat-rate refund (PRODUCT §16
// "Buyer's documents under the flat-rate refund"). A farmer under the
// flat-rate refund (vat.Flat) charges no VAT; the State refunds it a flat
// rate of what buyers liable to VAT paid it (art. 298 bis and 298 quater
// CGI), on its yearly claim, justified by two documents each such buyer
// hands over (CGI ann. II art. 265 and 266; BOFiP, "Régime du
// remboursement forfaitaire - Régime général - Formalités"):
//
//   - a purchase slip (bulletin d'achat) at each payment of a purchase,
//     price or instalment: its date, the nature and the value of what it
//     pays (Slip, one per recorded payment);
//   - at the beginning of each calendar year, a certificate (attestation
//     annuelle) of every payment made in the previous year for
//     agricultural products giving right to the refund, for the part of
//     them that is the refund's base (Certificate).
//
// A shop is liable to VAT when it has an intra-community VAT number: a
// shop without one gets neither. Everything else is read from what is
// stored: the recorded payments, their allocations, and the documents
// they pay with the parties and lines stored when they were issued, so
// that a slip reads the same whenever it is downloaded. The refund is due
// on what the farmer cashed (the BOFiP's "fait générateur" of the refund),
// its base the net amount cashed (CGI ann. II art. 263;
// BOI-TVA-SECT-80-60-10-20): a payment counts in the year of its date
// (paid_on), whatever the dates of the invoices it pays.
//
// What of a payment is the refund's base: its allocations to documents
// issued under the flat-rate refund (a document of another regime, issued
// before the producer changed regime, charged VAT or was exempt), and
// what it left on account — an instalment on the pair's next documents
// (art. 265: "price or instalment") — when its reference document was:
// the latest document it pays, else the pair's latest document issued by
// its date (else the pair's first). Credit notes are never paid: a
// payment is the net amount cashed, escompte and réfactions deducted. The
// base is split by refund rate (vat.FlatRateOf) in proportion to the
// products of the documents it pays, their claims' credit notes deducted;
// what it left on account in proportion to its reference document's.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/store"
	"primeur/core/vat"
)

// French texts of the flat-rate refund's documents.
const (
	// MsgFlatShopNoVAT tells a shop why it has no purchase slip.
	MsgFlatShopNoVAT = "Votre numéro de TVA intracommunautaire n'est pas renseigné dans votre profil : Primeur n'établit " +
		"les bulletins d'achat et l'attestation annuelle du remboursement forfaitaire agricole que pour un acheteur " +
		"redevable de la TVA (art. 265 et 266 de l'annexe II au CGI)."
	// MsgFlatProducerNoVAT tells the producer why a shop's payments have
	// none.
	MsgFlatProducerNoVAT = "Ce magasin n'a pas renseigné de numéro de TVA intracommunautaire : ses paiements ne donnent lieu " +
		"ni à bulletin d'achat ni à attestation annuelle, que seul un acheteur redevable de la TVA délivre " +
		"(art. 265 et 266 de l'annexe II au CGI)."
)

// SlipNumber is the reference of a payment's purchase slip:
// "BA-" + its date as YYYYMMDD + "-" + the last 12 hexadecimal digits of
// its id, upper case ("BA-20261215-3F9A1C2B7D4E"). A payment's id never
// changes nor is reused, and its date never changes: the reference is
// stable, printed on the slip and on the yearly certificate, and unique
// in practice (the id's last 48 bits are random: the slip also prints
// the whole id).
func SlipNumber(p Payment) string {
	id := strings.ToUpper(strings.ReplaceAll(p.ID, "-", ""))
	if len(id) > 12 {
		id = id[len(id)-12:]
	}
	return "BA-" + strings.ReplaceAll(p.PaidOn, "-", "") + "-" + id
}

// RatePart is what of the payments is at one refund rate.
type RatePart struct {
	// Rate is in hundredths of a percent (vat.FlatRates).
	Rate int64
	// Base is the payments' part at that rate, in cents.
	Base decimal.Dec
	// Refund is Base × Rate, rounded to the cent: what the farmer may
	// claim, for information.
	Refund decimal.Dec
}

// SlipDocument is a document a payment pays.
type SlipDocument struct {
	ID        string
	Kind      string
	Number    string
	IssueDate string
	// Total is its amount TTC.
	Total decimal.Dec
	// Paid is what the payment pays of it (its allocation).
	Paid decimal.Dec
	// Flat is whether it was issued under the flat-rate refund: a
	// document of another regime is not part of the refund's base.
	Flat bool
}

// SlipProduct is a product of the documents a payment pays, what they
// billed of it less what their claims' credit notes took off.
type SlipProduct struct {
	Product  string
	Unit     string
	Quantity decimal.Dec
	// Amount is HT: the documents of the flat-rate refund charge no VAT.
	Amount decimal.Dec
	Rate   int64
}

// Slip is the purchase slip (bulletin d'achat) of a recorded payment.
type Slip struct {
	Number  string
	Payment Payment
	// Producer and Shop are the parties as the documents the payment pays
	// state them (the shop's VAT number from its profile when they had
	// none).
	Producer, Shop billing.Party
	// Documents are those it pays, in the order of its allocations.
	Documents []SlipDocument
	// Products are those of its documents under the flat-rate refund,
	// in the order they first appear.
	Products []SlipProduct
	// OnAccount is what it left on account: an instalment on the pair's
	// next documents.
	OnAccount decimal.Dec
	// Base is its part that is the refund's base, split in Rates.
	Base  decimal.Dec
	Rates []RatePart
	// Issued is when the payment came to count: recorded, or confirmed.
	Issued time.Time
}

// Certificate is the yearly certificate (attestation annuelle) of what a
// shop paid a producer under the flat-rate refund in a calendar year.
type Certificate struct {
	Year           int
	Producer, Shop billing.Party
	// Slips are the year's payments with a part under the refund, by date.
	Slips []Slip
	// Base is the sum of their bases, split in Rates (every rate of
	// vat.FlatRates, highest first, zero or not).
	Base  decimal.Dec
	Rates []RatePart
}

// FlatRate is what a pair has of the buyer's documents, as the payment
// screens list them.
type FlatRate struct {
	// Liable is whether the shop is liable to VAT (has a VAT number): the
	// documents exist only then, Slips and Years are empty otherwise.
	Liable bool
	// Slips are the recorded payments with a part under the refund,
	// newest first.
	Slips []SlipHead
	// Years are the calendar years of their dates, newest first.
	Years []YearHead
}

// SlipHead is a purchase slip as listed.
type SlipHead struct {
	PaymentID string
	Number    string
	PaidOn    string
	Base      decimal.Dec
}

// YearHead is a year of a certificate as listed.
type YearHead struct {
	Year int
	Base decimal.Dec
}

// Pair names an account: producer and shop.
type Pair struct{ Producer, Shop string }

// flatDoc is an invoice, complementary invoice or credit note as the
// flat-rate documents read it.
type flatDoc struct {
	ID            string      `db:"id"`
	InvoiceID     string      `db:"invoice_id"`
	ProducerID    string      `db:"producer_id"`
	DistributorID string      `db:"distributor_id"`
	Kind          string      `db:"kind"`
	Number        string      `db:"number"`
	IssueDate     string      `db:"issue_date"`
	Total         decimal.Dec `db:"total_ttc"`
	VATRegime     string      `db:"vat_regime"`
	VATExempt     bool        `db:"vat_exempt"`
	Seller        string      `db:"seller"`
	Buyer         string      `db:"buyer"`
}

// flat reports whether the document was issued under the flat-rate
// refund, as billing.Invoice.Regime reads a stored document.
func (d *flatDoc) flat() bool {
	return billing.Invoice{VATRegime: d.VATRegime, VATExempt: d.VATExempt}.Regime() == vat.Flat
}

// flatLine is a line of a document: what its product weighs in the split
// by rate, and what the slip shows of it.
type flatLine struct {
	DocumentID string      `db:"document_id"`
	ProductID  string      `db:"product_id"`
	Product    string      `db:"product"`
	Unit       string      `db:"unit"`
	Quantity   decimal.Dec `db:"quantity"`
	Amount     decimal.Dec `db:"amount"`
}

// book is a pair's documents: by id, the invoices and complementary
// invoices in issue order, the claims' credit notes of each invoice, and
// the lines read so far.
type book struct {
	byID    map[string]*flatDoc
	issued  []*flatDoc
	credits map[string][]*flatDoc
	lines   map[string][]flatLine
}

func newBook(docs []flatDoc) book {
	b := book{byID: map[string]*flatDoc{}, credits: map[string][]*flatDoc{}, lines: map[string][]flatLine{}}
	for i := range docs {
		d := &docs[i]
		b.byID[d.ID] = d
		switch d.Kind {
		case billing.KindCredit:
			b.credits[d.InvoiceID] = append(b.credits[d.InvoiceID], d)
		case billing.KindDiscount:
		default:
			b.issued = append(b.issued, d)
		}
	}
	slices.SortFunc(b.issued, func(x, y *flatDoc) int {
		if c := strings.Compare(x.IssueDate, y.IssueDate); c != 0 {
			return c
		}
		return strings.Compare(x.Number, y.Number)
	})
	return b
}

// later reports whether x was issued after y.
func later(x, y *flatDoc) bool {
	return x.IssueDate > y.IssueDate || x.IssueDate == y.IssueDate && x.Number > y.Number
}

// flatPart is what of a recorded payment is the refund's base.
type flatPart struct {
	// allocs are its allocations to documents issued under the refund.
	allocs []Allocation
	// onAccount is what it left on account; rest is that part when it
	// counts, 0 otherwise.
	onAccount, rest decimal.Dec
	// ref is its reference document (nil for a pair without any).
	ref *flatDoc
}

func (f flatPart) base() decimal.Dec {
	b := f.rest
	for _, a := range f.allocs {
		b += a.Amount
	}
	return b
}

// part is what of p is the refund's base (see the package's note).
func (b book) part(p Payment) flatPart {
	f := flatPart{onAccount: p.Amount}
	for _, a := range p.Allocations {
		f.onAccount -= a.Amount
		d := b.byID[a.DocumentID]
		if d == nil {
			continue
		}
		if f.ref == nil || later(d, f.ref) {
			f.ref = d
		}
		if d.flat() {
			f.allocs = append(f.allocs, a)
		}
	}
	f.onAccount = max(f.onAccount, 0)
	if f.ref == nil && len(b.issued) > 0 {
		f.ref = b.issued[0]
		for _, d := range b.issued {
			if d.IssueDate <= p.PaidOn {
				f.ref = d
			}
		}
	}
	if f.ref != nil && f.ref.flat() {
		f.rest = f.onAccount
	}
	return f
}

// weights are the amounts of a document's products by refund rate: its
// lines', less those of its claims' credit notes, by rateOf.
func (b book) weights(d *flatDoc, rateOf func(string) int64) map[int64]decimal.Dec {
	w := map[int64]decimal.Dec{}
	for _, l := range b.lines[d.ID] {
		w[rateOf(l.ProductID)] += l.Amount
	}
	for _, c := range b.credits[d.ID] {
		for _, l := range b.lines[c.ID] {
			w[rateOf(l.ProductID)] -= l.Amount
		}
	}
	return w
}

// split shares amount between the rates in proportion to their weights
// (the positive ones), each share rounded down to the cent and the cents
// left given to the largest remainders, the higher rate first on a tie, so
// that the shares add up to amount. Without any positive weight, the
// whole amount is at vat.FlatRateOther, the rate of every product but the
// first list's.
func split(amount decimal.Dec, weights map[int64]decimal.Dec) map[int64]decimal.Dec {
	out := map[int64]decimal.Dec{}
	var total int64
	for _, r := range vat.FlatRates {
		total += max(int64(weights[r]), 0)
	}
	if total == 0 {
		out[vat.FlatRateOther] = amount
		return out
	}
	type share struct {
		rate int64
		rem  *big.Int
	}
	var shares []share
	left := amount
	den := big.NewInt(total)
	for _, r := range vat.FlatRates {
		w := max(int64(weights[r]), 0)
		if w == 0 {
			continue
		}
		q, m := new(big.Int).QuoRem(new(big.Int).Mul(big.NewInt(int64(amount)), big.NewInt(w)), den, new(big.Int))
		out[r] = decimal.Dec(q.Int64())
		left -= out[r]
		shares = append(shares, share{r, m})
	}
	slices.SortStableFunc(shares, func(a, b share) int { return b.rem.Cmp(a.rem) })
	for i := 0; left > 0; i = (i + 1) % len(shares) {
		out[shares[i].rate]++
		left--
	}
	return out
}

// rateParts lists the bases by rate, every rate of vat.FlatRates highest
// first when all is set, else only those with a base, with their refunds.
func rateParts(bases map[int64]decimal.Dec, all bool) []RatePart {
	var out []RatePart
	for _, r := range vat.FlatRates {
		if bases[r] != 0 || all {
			out = append(out, RatePart{Rate: r, Base: bases[r], Refund: decimal.MulDiv(bases[r], r, 10000)})
		}
	}
	return out
}

// slip is the purchase slip of p, the lines of its documents read.
func (b book) slip(p Payment, shopVAT string) (Slip, error) {
	f := b.part(p)
	s := Slip{Number: SlipNumber(p), Payment: p, OnAccount: f.onAccount, Base: f.base(), Issued: time.UnixMilli(p.UpdatedAt)}
	bases := map[int64]decimal.Dec{}
	add := func(m map[int64]decimal.Dec) {
		for r, v := range m {
			bases[r] += v
		}
	}
	products := map[[2]string]int{}
	addProduct := func(l flatLine, sign decimal.Dec) {
		k := [2]string{l.Product, l.Unit}
		i, ok := products[k]
		if !ok {
			i = len(s.Products)
			products[k] = i
			s.Products = append(s.Products, SlipProduct{Product: l.Product, Unit: l.Unit, Rate: vat.FlatRateOf(l.ProductID)})
		}
		s.Products[i].Quantity += sign * l.Quantity
		s.Products[i].Amount += sign * l.Amount
	}
	party := f.ref
	for _, a := range p.Allocations {
		d := b.byID[a.DocumentID]
		if d == nil {
			return s, fmt.Errorf("payments: %s pays %s, not a document of the pair", p.ID, a.DocumentID)
		}
		s.Documents = append(s.Documents, SlipDocument{ID: d.ID, Kind: d.Kind, Number: d.Number, IssueDate: d.IssueDate,
			Total: d.Total, Paid: a.Amount, Flat: d.flat()})
		if !d.flat() {
			continue
		}
		if party == nil || !party.flat() || later(d, party) {
			party = d
		}
		add(split(a.Amount, b.weights(d, vat.FlatRateOf)))
		for _, l := range b.lines[d.ID] {
			addProduct(l, 1)
		}
		for _, c := range b.credits[d.ID] {
			for _, l := range b.lines[c.ID] {
				addProduct(l, -1)
			}
		}
	}
	if f.rest > 0 {
		add(split(f.rest, b.weights(f.ref, vat.FlatRateOf)))
	}
	s.Rates = rateParts(bases, false)
	if party == nil {
		return s, fmt.Errorf("payments: %s: %w", p.ID, core.ErrNotFound)
	}
	var err error
	if s.Producer, s.Shop, err = parties(party, shopVAT); err != nil {
		return s, err
	}
	return s, nil
}

// parties are the producer and the shop as document d states them, the
// shop's VAT number from its profile when d has none.
func parties(d *flatDoc, shopVAT string) (producer, shop billing.Party, err error) {
	if err = json.Unmarshal([]byte(d.Seller), &producer); err == nil {
		err = json.Unmarshal([]byte(d.Buyer), &shop)
	}
	if err != nil {
		return producer, shop, fmt.Errorf("payments: parties of %s: %w", d.ID, err)
	}
	if strings.TrimSpace(shop.TVA) == "" {
		shop.TVA = shopVAT
	}
	return producer, shop, nil
}

// Regime is a producer's VAT regime: as set, or as vat.Of reads an
// account that set none.
func Regime(u accounts.User) string {
	if vat.Valid(u.VATRegime) {
		return u.VATRegime
	}
	return vat.Of(strings.TrimSpace(u.TVAIntracom))
}

// Liable reports whether a shop is liable to VAT: it has an
// intra-community VAT number.
func Liable(shop accounts.User) bool { return strings.TrimSpace(shop.TVAIntracom) != "" }

// docsWhere reads the documents where cond (with args) holds, with their
// parties when parties is set.
func docsWhere(ctx context.Context, q store.Q, parties bool, cond string, args ...any) ([]flatDoc, error) {
	var docs []flatDoc
	if err := store.Select(ctx, q, &docs, `SELECT id, COALESCE(invoice_id, '') AS invoice_id, producer_id, distributor_id, kind,
			number, issue_date, total_ttc, vat_regime, vat_exempt,
			CASE WHEN ? THEN seller ELSE '' END AS seller, CASE WHEN ? THEN buyer ELSE '' END AS buyer
		FROM documents WHERE `+cond, append([]any{parties, parties}, args...)...); err != nil {
		return nil, fmt.Errorf("payments: flat-rate documents: %w", err)
	}
	return docs, nil
}

// readLines reads the lines of the documents of ids and of their claims'
// credit notes into b.
func (b book) readLines(ctx context.Context, q store.Q, ids []string) error {
	for _, id := range ids {
		for _, c := range b.credits[id] {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var ls []flatLine
	if err := store.SelectIn(ctx, q, &ls, `SELECT document_id, product_id, product, unit, quantity, amount
		FROM document_lines WHERE document_id IN (?) ORDER BY document_id, position`, ids); err != nil {
		return fmt.Errorf("payments: flat-rate lines: %w", err)
	}
	for _, l := range ls {
		b.lines[l.DocumentID] = append(b.lines[l.DocumentID], l)
	}
	return nil
}

// recorded reads the pair's recorded payments paid from `from` to `to`
// ("YYYY-MM-DD", inclusive), or the one payment id when it is set, by
// date, with their allocations.
func recorded(ctx context.Context, q store.Q, producerID, shopID, id, from, to string) ([]Payment, error) {
	var w store.Where
	w.And(true, "producer_id = ? AND distributor_id = ? AND status = ?", producerID, shopID, Recorded)
	w.And(id != "", "id = ?", id)
	w.And(from != "", "paid_on >= ? AND paid_on <= ?", from, to)
	var pays []Payment
	if err := store.Select(ctx, q, &pays, `SELECT id, producer_id, distributor_id, amount, paid_on, method, reference, status,
		created_by, created_at, updated_at FROM payments WHERE `+w.SQL()+` ORDER BY paid_on, created_at, id`, w.Args()...); err != nil {
		return nil, fmt.Errorf("payments: recorded payments: %w", err)
	}
	if len(pays) == 0 {
		return nil, nil
	}
	ids := make([]string, len(pays))
	for i, p := range pays {
		ids[i] = p.ID
	}
	var allocs []Allocation
	if err := store.SelectIn(ctx, q, &allocs, `SELECT payment_id, document_id, amount FROM payment_allocations
		WHERE payment_id IN (?)`, ids); err != nil {
		return nil, fmt.Errorf("payments: allocations: %w", err)
	}
	byPayment := map[string][]Allocation{}
	for _, a := range allocs {
		byPayment[a.PaymentID] = append(byPayment[a.PaymentID], a)
	}
	for i := range pays {
		pays[i].Allocations = byPayment[pays[i].ID]
	}
	return pays, nil
}

// pairOf is the producer and the shop of an account between user and
// partner, the shop's profile, and the pair's book with its parties; a
// partner of the same role, or one without documents with the user, is
// core.ErrNotFound.
func pairOf(ctx context.Context, q store.Q, user accounts.User, partnerID string) (accounts.User, book, error) {
	producerID, shopID := user.ID, partnerID
	if !user.IsProducer() {
		producerID, shopID = partnerID, user.ID
	}
	shop, err := accounts.ByID(ctx, q, shopID)
	if err == nil && !shop.IsDistributor() {
		err = core.ErrNotFound
	}
	if err != nil {
		return shop, book{}, fmt.Errorf("payments: flat-rate pair: %w", err)
	}
	docs, err := docsWhere(ctx, q, true, "producer_id = ? AND distributor_id = ?", producerID, shopID)
	if err != nil {
		return shop, book{}, err
	}
	if len(docs) == 0 {
		return shop, book{}, fmt.Errorf("payments: no documents between %s and %s: %w", producerID, shopID, core.ErrNotFound)
	}
	return shop, newBook(docs), nil
}

// LoadSlip returns the purchase slip of a recorded payment for one of its
// two parties, or core.ErrNotFound: a payment that is not the user's, not
// recorded (declared, refused, undone), without any part under the
// refund, or between a shop without a VAT number and its producer.
func LoadSlip(ctx context.Context, q store.Q, user accounts.User, paymentID string) (Slip, error) {
	var p Payment
	err := store.Get(ctx, q, &p, `SELECT id, producer_id, distributor_id FROM payments WHERE id = ? AND (producer_id = ? OR distributor_id = ?)`,
		paymentID, user.ID, user.ID)
	if store.IsNotFound(err) {
		return Slip{}, fmt.Errorf("payments: slip %s: %w", paymentID, core.ErrNotFound)
	}
	if err != nil {
		return Slip{}, fmt.Errorf("payments: slip %s: %w", paymentID, err)
	}
	partner := p.DistributorID
	if user.ID == p.DistributorID {
		partner = p.ProducerID
	}
	shop, b, err := pairOf(ctx, q, user, partner)
	if err != nil {
		return Slip{}, err
	}
	pays, err := recorded(ctx, q, p.ProducerID, p.DistributorID, paymentID, "", "")
	if err != nil {
		return Slip{}, err
	}
	if len(pays) != 1 || !Liable(shop) || b.part(pays[0]).base() <= 0 {
		return Slip{}, fmt.Errorf("payments: slip %s: %w", paymentID, core.ErrNotFound)
	}
	if err := b.readLines(ctx, q, slipDocuments(b, pays)); err != nil {
		return Slip{}, err
	}
	return b.slip(pays[0], strings.TrimSpace(shop.TVAIntracom))
}

// slipDocuments are the ids of the documents the slips of pays read the
// lines of: those they pay and their reference documents.
func slipDocuments(b book, pays []Payment) []string {
	seen := map[string]bool{}
	var ids []string
	for _, p := range pays {
		for _, a := range p.Allocations {
			if !seen[a.DocumentID] {
				seen[a.DocumentID] = true
				ids = append(ids, a.DocumentID)
			}
		}
		if ref := b.part(p).ref; ref != nil && !seen[ref.ID] {
			seen[ref.ID] = true
			ids = append(ids, ref.ID)
		}
	}
	return ids
}

// LoadCertificate returns the certificate of the payments a shop made a
// producer in a calendar year, for either of them (user; partnerID the
// other), or core.ErrNotFound: no documents between the two, a shop
// without a VAT number, or no payment of the year with a part under the
// refund.
func LoadCertificate(ctx context.Context, q store.Q, user accounts.User, partnerID string, year int) (Certificate, error) {
	shop, b, err := pairOf(ctx, q, user, partnerID)
	if err != nil {
		return Certificate{}, err
	}
	producerID := user.ID
	if !user.IsProducer() {
		producerID = partnerID
	}
	c := Certificate{Year: year}
	if !Liable(shop) || year < 1 || year > 9999 {
		return c, fmt.Errorf("payments: certificate %d: %w", year, core.ErrNotFound)
	}
	pays, err := recorded(ctx, q, producerID, shop.ID, "", fmt.Sprintf("%04d-01-01", year), fmt.Sprintf("%04d-12-31", year))
	if err != nil {
		return c, err
	}
	pays = slices.DeleteFunc(pays, func(p Payment) bool { return b.part(p).base() <= 0 })
	if len(pays) == 0 {
		return c, fmt.Errorf("payments: certificate %d: %w", year, core.ErrNotFound)
	}
	if err := b.readLines(ctx, q, slipDocuments(b, pays)); err != nil {
		return c, err
	}
	bases := map[int64]decimal.Dec{}
	for _, p := range pays {
		s, err := b.slip(p, strings.TrimSpace(shop.TVAIntracom))
		if err != nil {
			return c, err
		}
		c.Slips = append(c.Slips, s)
		c.Base += s.Base
		for _, r := range s.Rates {
			bases[r.Rate] += r.Base
		}
		// The parties as the year's last slip states them.
		c.Producer, c.Shop = s.Producer, s.Shop
	}
	c.Rates = rateParts(bases, true)
	return c, nil
}

// FlatRates returns the buyer's documents of the accounts accs, read by
// Accounts for the same producerID and distributorID: for each pair whose
// producer sells under the flat-rate refund, or whose documents were
// issued under it, what FlatRate lists. A pair of another regime has no
// entry.
func FlatRates(ctx context.Context, q store.Q, producerID, distributorID string, accs []Account) (map[Pair]FlatRate, error) {
	out := map[Pair]FlatRate{}
	if len(accs) == 0 {
		return out, nil
	}
	var w store.Where
	w.And(producerID != "", "producer_id = ?", producerID)
	w.And(distributorID != "", "distributor_id = ?", distributorID)
	docs, err := docsWhere(ctx, q, false, w.SQL(), w.Args()...)
	if err != nil {
		return nil, err
	}
	byPair := map[Pair][]flatDoc{}
	for _, d := range docs {
		k := Pair{d.ProducerID, d.DistributorID}
		byPair[k] = append(byPair[k], d)
	}
	ids := make([]string, 0, 2*len(accs))
	for _, a := range accs {
		ids = append(ids, a.ProducerID, a.DistributorID)
	}
	var users []struct {
		ID        string `db:"id"`
		VAT       string `db:"tvaintracom"`
		VATRegime string `db:"vat_regime"`
	}
	if err := store.SelectIn(ctx, q, &users, `SELECT id, tvaintracom, vat_regime FROM users WHERE id IN (?)`, ids); err != nil {
		return nil, fmt.Errorf("payments: flat-rate parties: %w", err)
	}
	profiles := map[string]accounts.User{}
	for _, u := range users {
		profiles[u.ID] = accounts.User{ID: u.ID, TVAIntracom: u.VAT, VATRegime: u.VATRegime}
	}
	for _, a := range accs {
		k := Pair{a.ProducerID, a.DistributorID}
		b := newBook(byPair[k])
		flat := Regime(profiles[a.ProducerID]) == vat.Flat
		for _, d := range b.byID {
			flat = flat || d.flat()
		}
		if !flat {
			continue
		}
		f := FlatRate{Liable: Liable(profiles[a.DistributorID]), Slips: []SlipHead{}, Years: []YearHead{}}
		if f.Liable {
			f.Slips, f.Years = b.heads(a.Payments)
		}
		out[k] = f
	}
	return out, nil
}

// heads lists the slips of the recorded payments of pays with a part
// under the refund, in the order of pays (Accounts: newest first), and
// the years of their dates, newest first.
func (b book) heads(pays []Payment) ([]SlipHead, []YearHead) {
	slips, years := []SlipHead{}, []YearHead{}
	byYear := map[int]decimal.Dec{}
	for _, p := range pays {
		if p.Status != Recorded {
			continue
		}
		base := b.part(p).base()
		if base <= 0 {
			continue
		}
		slips = append(slips, SlipHead{PaymentID: p.ID, Number: SlipNumber(p), PaidOn: p.PaidOn, Base: base})
		var y int
		if _, err := fmt.Sscanf(p.PaidOn, "%4d", &y); err == nil {
			if _, ok := byYear[y]; !ok {
				years = append(years, YearHead{Year: y})
			}
			byYear[y] += base
		}
	}
	slices.SortFunc(years, func(a, b YearHead) int { return b.Year - a.Year })
	for i := range years {
		years[i].Base = byYear[years[i].Year]
	}
	return slips, years
}
