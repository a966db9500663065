package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/sepa"
	"primeur/core/store"
)

// Refusals of a transfer file.
const (
	MsgTransferNone = "Choisissez au moins une facture restant à payer."
	MsgShopIBAN     = "Renseignez un IBAN valide (et un BIC valide, s'il est renseigné) dans votre profil pour préparer le virement."
	// MsgProducerIBAN names the producer.
	MsgProducerIBAN = "%s n'a pas renseigné d'IBAN valide : son virement ne peut pas être préparé."
)

// maxRemittance is the SEPA remittance information's length.
const maxRemittance = 140

// TransferFile is the SEPA credit transfer file (pain.001.001.09) of
// PlanTransfer.
func TransferFile(ctx context.Context, q store.Q, shop accounts.User, documentIDs []string, now time.Time, today string) ([]byte, error) {
	_, x, err := transfer(ctx, q, shop, documentIDs, now, today)
	return x, err
}

// PlanTransfer is the credit transfer paying the shop's documents named —
// each for what is left to pay of it — one transfer per producer, from the
// shop's account to the producer's (IBAN and BIC from their profiles),
// with the remittance information of Remittance (the invoices, the credit
// notes netted, what is paid of an invoice paid in part), requested for
// the next TARGET2 business day (ExecutionDate). Documents that are not
// the shop's or have nothing left to pay, and accounts a SEPA file cannot
// name, are refused in French.
func PlanTransfer(ctx context.Context, q store.Q, shop accounts.User, documentIDs []string, now time.Time, today string) (Plan, error) {
	f, _, err := transfer(ctx, q, shop, documentIDs, now, today)
	return f, err
}

// Plan is a transfer file as planned: the file, and the producer each of
// its transfers pays.
type Plan struct {
	sepa.File
	Producers []string
}

// ExecutionDate is the execution date a transfer file prepared today
// requests: the next TARGET2 business day, the first day after today that
// a SEPA credit transfer settles (no Saturday, Sunday, 1 January, Good
// Friday, Easter Monday, 1 May, 25 or 26 December: calendar.TargetDay).
func ExecutionDate(today string) string {
	d, ok := calendar.ParseDate(today)
	if !ok {
		return today
	}
	return d.NextTargetDay().String()
}

func transfer(ctx context.Context, q store.Q, shop accounts.User, documentIDs []string, now time.Time, today string) (Plan, []byte, error) {
	accs, err := Accounts(ctx, q, "", shop.ID, today)
	if err != nil {
		return Plan{}, nil, err
	}
	open := map[string]Document{}
	producerOf := map[string]string{}
	credits := map[string][]string{} // by producer and invoice number
	for _, a := range accs {
		for _, d := range a.Documents {
			switch {
			case !receivable(d):
				credits[a.ProducerID+"/"+d.Refers] = append(credits[a.ProducerID+"/"+d.Refers], d.Number)
			case d.Balance > 0:
				open[d.ID] = d
				producerOf[d.ID] = a.ProducerID
			}
		}
	}
	type group struct {
		producer string
		items    []RemittanceItem
		total    decimal.Dec
	}
	var groups []*group
	byProducer := map[string]*group{}
	seen := map[string]bool{}
	execution := ExecutionDate(today)
	for _, id := range documentIDs {
		d, ok := open[id]
		if !ok {
			return Plan{}, nil, core.Invalid("documents", MsgDocumentPay)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		g := byProducer[producerOf[id]]
		if g == nil {
			g = &group{producer: producerOf[id]}
			byProducer[g.producer] = g
			groups = append(groups, g)
		}
		item := RemittanceItem{Number: d.Number, Credits: credits[g.producer+"/"+d.Number]}
		amount := d.Balance
		if d.Discount > 0 && d.Discount < d.Balance && execution <= d.DiscountUntil {
			// Executed within the escompte's window: the escompte deducted,
			// as the invoice offers (PRODUCT §16 "Escompte").
			amount -= d.Discount
			item.Escompte = d.Discount
		}
		if d.Paid > 0 {
			item.Rest = amount
		}
		g.items = append(g.items, item)
		g.total += amount
	}
	if len(groups) == 0 {
		return Plan{}, nil, core.Invalid("documents", MsgTransferNone)
	}
	f := Plan{File: sepa.File{
		MsgID:   "PRIMEUR-" + now.UTC().Format("20060102150405") + "-" + strings.ReplaceAll(core.NewID(), "-", "")[:8],
		Created: now, Execution: execution,
		Debtor: sepa.Party{Name: shop.Name, IBAN: shop.IBAN, BIC: shop.BIC},
	}}
	for _, g := range groups {
		p, err := accounts.ByID(ctx, q, g.producer)
		if err != nil {
			return Plan{}, nil, err
		}
		f.Producers = append(f.Producers, g.producer)
		f.Transfers = append(f.Transfers, sepa.Transfer{
			Creditor:   sepa.Party{Name: p.Name, IBAN: p.IBAN, BIC: p.BIC},
			Amount:     g.total,
			EndToEnd:   g.items[0].Number,
			Remittance: Remittance(g.items),
		})
	}
	x, err := f.XML()
	var creditor sepa.CreditorError
	switch {
	case errors.As(err, &creditor):
		return f, nil, core.Invalid("documents", fmt.Sprintf(MsgProducerIBAN, creditor.Name))
	case errors.Is(err, sepa.ErrDebtor):
		return f, nil, core.Invalid("iban", MsgShopIBAN)
	case errors.Is(err, sepa.ErrAmount):
		return f, nil, core.Invalid("documents", MsgAmount)
	case err != nil:
		return f, nil, fmt.Errorf("payments: transfer file: %w", err)
	}
	return f, x, nil
}

// RemittanceItem is an invoice a transfer pays, as its remittance
// information names it.
type RemittanceItem struct {
	Number string
	// Credits are the numbers of the credit notes netted from it (claims'
	// and escompte's).
	Credits []string
	// Rest is what the transfer pays of an invoice already paid in part;
	// 0 when nothing was paid of it yet.
	Rest decimal.Dec
	// Escompte is the escompte the transfer deducts, executed within its
	// window; 0 for none.
	Escompte decimal.Dec
}

// Remittance is the remittance information of a transfer paying
// invoices, within the 140 characters of SEPA: "Facture FA-2026-000001",
// "Factures FA-2026-000001 FA-2026-000002 (moins AV-2026-000001)
// FA-2026-000003 (solde 14,96)" — each invoice, the credit notes netted
// from it, and what is paid of an invoice paid in part ("solde"). When
// that does not fit, the credit notes are counted instead of named
// ("moins 2 avoirs"); when that does not fit either, the invoice numbers
// alone, those that fit, then how many others ("et 3 autres").
//
// It is unstructured (Ustrd): the EPC's guidelines for SEPA credit
// transfers (EPC132-08, and its schema) keep of the structured form only
// a creditor reference (CdtrRefInf, one reference of 35 characters),
// without the referred documents and their amounts of ISO 20022
// (RfrdDocInf, RfrdDocAmt), and allow one form or the other, not both;
// 'Unstructured' may carry structured information agreed by the parties.
func Remittance(items []RemittanceItem) string {
	prefix := "Facture "
	if len(items) > 1 {
		prefix = "Factures "
	}
	for _, named := range []bool{true, false} {
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = it.text(named)
		}
		if s := prefix + strings.Join(parts, " "); len(s) <= maxRemittance {
			return s
		}
	}
	s := prefix + items[0].Number
	for i, it := range items[1:] {
		rest := len(items) - 1 - i
		more := fmt.Sprintf(" et %d autres", rest)
		if rest == 1 {
			more = " et 1 autre"
		}
		// Room for this number, and for saying how many others follow it.
		tail := 0
		if rest > 1 {
			tail = len(fmt.Sprintf(" et %d autres", rest-1))
		}
		if len(s)+1+len(it.Number)+tail > maxRemittance {
			return s + more
		}
		s += " " + it.Number
	}
	return s
}

// text is the item with its details: the credit notes named (or counted),
// and the rest paid.
func (it RemittanceItem) text(named bool) string {
	var details []string
	switch {
	case len(it.Credits) > 0 && named:
		details = append(details, "moins "+strings.Join(it.Credits, " "))
	case len(it.Credits) == 1:
		details = append(details, "moins 1 avoir")
	case len(it.Credits) > 1:
		details = append(details, fmt.Sprintf("moins %d avoirs", len(it.Credits)))
	}
	if it.Escompte > 0 {
		details = append(details, fmt.Sprintf("escompte %d,%02d", int64(it.Escompte)/100, int64(it.Escompte)%100))
	}
	if it.Rest > 0 {
		details = append(details, fmt.Sprintf("solde %d,%02d", int64(it.Rest)/100, int64(it.Rest)%100))
	}
	if len(details) == 0 {
		return it.Number
	}
	return it.Number + " (" + strings.Join(details, ", ") + ")"
}
