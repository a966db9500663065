package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
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

// TransferFile is the SEPA credit transfer file (pain.001.001.09) paying
// the shop's documents named — each for what is left to pay of it — one
// transfer per producer, from the shop's account to the producer's (IBAN
// and BIC from their profiles), the invoice numbers in the remittance
// information, executed on the next day. Documents that are not the
// shop's or have nothing left to pay are refused.
func TransferFile(ctx context.Context, q store.Q, shop accounts.User, documentIDs []string, now time.Time, today string) ([]byte, error) {
	accs, err := Accounts(ctx, q, "", shop.ID, today)
	if err != nil {
		return nil, err
	}
	open := map[string]Document{}
	producerOf := map[string]string{}
	for _, a := range accs {
		for _, d := range a.Documents {
			if !billing.IsCredit(d.Kind) && d.Balance > 0 {
				open[d.ID] = d
				producerOf[d.ID] = a.ProducerID
			}
		}
	}
	type group struct {
		producer string
		docs     []Document
		total    decimal.Dec
	}
	var groups []*group
	byProducer := map[string]*group{}
	seen := map[string]bool{}
	for _, id := range documentIDs {
		d, ok := open[id]
		if !ok {
			return nil, core.Invalid("documents", MsgDocumentPay)
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
		g.docs = append(g.docs, d)
		g.total += d.Balance
	}
	if len(groups) == 0 {
		return nil, core.Invalid("documents", MsgTransferNone)
	}
	f := sepa.File{
		MsgID:   "PRIMEUR-" + now.UTC().Format("20060102150405") + "-" + strings.ReplaceAll(core.NewID(), "-", "")[:8],
		Created: now, Execution: nextDay(today),
		Debtor: sepa.Party{Name: shop.Name, IBAN: shop.IBAN, BIC: shop.BIC},
	}
	for _, g := range groups {
		p, err := accounts.ByID(ctx, q, g.producer)
		if err != nil {
			return nil, err
		}
		numbers := make([]string, len(g.docs))
		for i, d := range g.docs {
			numbers[i] = d.Number
		}
		f.Transfers = append(f.Transfers, sepa.Transfer{
			Creditor:   sepa.Party{Name: p.Name, IBAN: p.IBAN, BIC: p.BIC},
			Amount:     g.total,
			EndToEnd:   numbers[0],
			Remittance: Remittance(numbers),
		})
	}
	x, err := f.XML()
	var creditor sepa.CreditorError
	switch {
	case errors.As(err, &creditor):
		return nil, core.Invalid("documents", fmt.Sprintf(MsgProducerIBAN, creditor.Name))
	case errors.Is(err, sepa.ErrDebtor):
		return nil, core.Invalid("iban", MsgShopIBAN)
	case errors.Is(err, sepa.ErrAmount):
		return nil, core.Invalid("documents", MsgAmount)
	case err != nil:
		return nil, fmt.Errorf("payments: transfer file: %w", err)
	}
	return x, nil
}

// Remittance is the remittance information of a transfer paying invoices:
// "Factures FA-2026-000001 FA-2026-000002", within the 140 characters of
// SEPA — the numbers that fit, then how many others.
func Remittance(numbers []string) string {
	s := "Facture " + numbers[0]
	if len(numbers) > 1 {
		s = "Factures " + numbers[0]
	}
	for i, n := range numbers[1:] {
		rest := len(numbers) - 1 - i
		more := fmt.Sprintf(" et %d autres", rest)
		if rest == 1 {
			more = " et 1 autre"
		}
		// Room for this number, and for saying how many others follow it.
		tail := 0
		if rest > 1 {
			tail = len(fmt.Sprintf(" et %d autres", rest-1))
		}
		if len(s)+1+len(n)+tail > maxRemittance {
			return s + more
		}
		s += " " + n
	}
	return s
}

// nextDay is the day after today ("YYYY-MM-DD").
func nextDay(today string) string {
	d, ok := calendar.ParseDate(today)
	if !ok {
		return today
	}
	return d.AddDays(1).String()
}
