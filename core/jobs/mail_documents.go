package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/grammar"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/printable"
	"primeur/core/store"
	"primeur/core/terms"
)

// The emails of the documents: delivery notes, invoices, credit notes and
// complementary invoices, each sent through sendOnce.

// SendDue emails every delivery note due at now and every issued invoice
// and credit note not emailed yet. It returns how many notes and invoices
// (credit notes included) this call sent.
func SendDue(ctx context.Context, env Env, now time.Time) (notes, invoices int, err error) {
	notes, nerr := sendNotes(ctx, env, now)
	invoices, ierr := sendInvoices(ctx, env, now, nil)
	credits, cerr := sendCredits(ctx, env, now)
	return notes, invoices + credits, errors.Join(nerr, ierr, cerr)
}

func sendNotes(ctx context.Context, env Env, now time.Time) (int, error) {
	ids, err := env.Rules.NotesDue(ctx, env.DB, now)
	if err != nil {
		return 0, err
	}
	n, err := sendEach(ctx, env, noteSlot, ids, func(env Env, id string) error { return sendNote(ctx, env, id, now) })
	return n.sent, err
}

// sendInvoices sends the invoices not emailed yet that can go, except
// those of tried (sent or tried by the same run already).
func sendInvoices(ctx context.Context, env Env, now time.Time, tried map[string]bool) (int, error) {
	var ids []string
	if err := store.Select(ctx, env.DB, &ids, invoiceSlot.pending); err != nil {
		return 0, fmt.Errorf("jobs: unsent invoices: %w", err)
	}
	ids = slices.DeleteFunc(ids, func(id string) bool { return tried[id] })
	n, err := sendEach(ctx, env, invoiceSlot, ids, func(env Env, id string) error { return sendInvoice(ctx, env, id, now) })
	return n.sent, err
}

// sendCredits sends the credit notes and complementary invoices not
// emailed yet that can go.
func sendCredits(ctx context.Context, env Env, now time.Time) (int, error) {
	n, err := sendPending(ctx, env, creditSlot, now, sendCredit)
	return n.sent, err
}

func signature(env Env) string { return mail.Signature(env.BaseURL) }

// sendNote emails a delivery note to both parties.
func sendNote(ctx context.Context, env Env, deliveryID string, now time.Time) error {
	var orderID string
	if err := store.Get(ctx, env.DB, &orderID, `SELECT order_id FROM deliveries WHERE id = ?`, deliveryID); err != nil {
		return fmt.Errorf("jobs: note %s: %w", deliveryID, err)
	}
	n, err := delivery.LoadNote(ctx, env.DB, orderID, deliveryID)
	if err != nil {
		return err
	}
	to, err := env.recipients(ctx, notify.NoteRoles, n.Producer.ID, n.Shop.ID)
	if err != nil {
		return err
	}
	pdf, err := env.Render.note(n, env.Rules)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: note %s: %w", deliveryID, err)}
	}
	number := billing.NoteNumber(n.Delivery.Chrono)
	day := documents.Day(n.Delivery.Date)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("La livraison du %s %s %s est validée. Vous trouverez ci-joint son bon de livraison %s.\n\n",
			day, grammar.De(printable.Line(n.Producer.Name)), grammar.A(printable.Line(n.Shop.Name)), number) +
		fmt.Sprintf("Le producteur peut déclarer une réclamation (demande d'avoir) sur cette livraison jusqu'au %s inclus "+
			"(deux jours ouvrés après la livraison), ", claimUntil(n.Delivery.Date)) +
		"depuis l'écran Livraisons de Primeur ; le magasin y répond depuis son écran Réceptions.\n" + signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "note-" + deliveryID,
		To:      to,
		Subject: fmt.Sprintf("Bon de livraison %s — livraison du %s", number, day),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.NoteFileName(n.Delivery.Chrono), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

// errWaiting is the send of a document none of whose recipients has
// confirmed its address yet: it waits, and goes out once one has. The
// selections list only the documents that can go (documentReady): this is
// for an address unconfirmed since.
var errWaiting = errors.New("jobs: no recipient has confirmed its address")

// reachable returns, of addrs, the addresses confirmed (PRODUCT §13
// "Confirming an email"), without repeats; errWaiting when none is.
func (e Env) reachable(ctx context.Context, addrs ...string) ([]string, error) {
	ok, err := accounts.ConfirmedAddresses(ctx, e.DB, addrs)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, a := range ok {
		if k := accounts.EmailKey(a); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, errWaiting
	}
	return out, nil
}

// recipients are the confirmed login emails of the members of the
// organisations orgIDs that an email concerns — the owners and roles
// (notify.Recipients, the one place of who hears of what) —, without
// repeats; errWaiting when none is.
func (e Env) recipients(ctx context.Context, roles []string, orgIDs ...string) ([]string, error) {
	var addrs []string
	for _, org := range orgIDs {
		to, err := notify.Recipients(ctx, e.DB, org, roles)
		if err != nil {
			return nil, err
		}
		addrs = append(addrs, to...)
	}
	return e.reachable(ctx, addrs...)
}

// invoiceRecipients are the addresses an invoice (or credit note, or a
// reminder of one) goes to: the confirmed logins of the owners and
// accountants of the shop and of the producer (notify.DocumentRoles;
// PRODUCT §13 "Teams": the shops' accounting addresses became accountants,
// migrations 72 and 74).
func (e Env) invoiceRecipients(ctx context.Context, inv billing.Invoice) ([]string, error) {
	return e.recipients(ctx, notify.DocumentRoles, inv.DistributorID, inv.ProducerID)
}

// sendInvoice emails an issued invoice to the shop's accounting and the
// producer.
func sendInvoice(ctx context.Context, env Env, invoiceID string, now time.Time) error {
	inv, err := billing.Get(ctx, env.DB, invoiceID)
	if err != nil {
		return err
	}
	to, err := env.invoiceRecipients(ctx, inv)
	if err != nil {
		return err
	}
	pdf, err := env.Render.invoice(inv)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: invoice %s: %w", invoiceID, err)}
	}
	seller := printable.Line(inv.Seller.Name)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("Veuillez trouver ci-joint la facture %s du %s, émise par Primeur au nom et pour le compte %s "+
			"(mandat de facturation), pour les livraisons %s %s.\n\n",
			inv.Number, documents.Day(inv.IssueDate), grammar.De(seller), grammar.De(documents.Month(inv.Month)), grammar.A(printable.Line(inv.Buyer.Name))) +
		fmt.Sprintf("Montant TTC : %s\nÉchéance : %s\n", documents.Euros(inv.TotalTTC), documents.Day(inv.DueDate))
	if inv.Seller.IBAN != "" {
		body += fmt.Sprintf("Règlement par virement : IBAN %s, BIC %s\n",
			printable.Line(documents.IBAN(inv.Seller.IBAN)), printable.Line(inv.Seller.BIC))
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "invoice-" + inv.ID,
		To:      to,
		Subject: fmt.Sprintf("Facture %s — %s — %s", inv.Number, seller, documents.Month(inv.Month)),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.InvoiceFileName(inv.Number), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

// sendCredit emails a credit note or complementary invoice to the shop's
// accounting and the producer.
func sendCredit(ctx context.Context, env Env, id string, now time.Time) error {
	doc, err := billing.GetCredit(ctx, env.DB, id)
	if err != nil {
		return err
	}
	to, err := env.invoiceRecipients(ctx, doc)
	if err != nil {
		return err
	}
	pdf, err := env.Render.invoice(doc)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: credit note %s: %w", id, err)}
	}
	seller := printable.Line(doc.Seller.Name)
	day := ""
	if len(doc.Notes) > 0 {
		day = documents.Day(doc.Notes[0].Date)
	}
	issued := fmt.Sprintf("%s du %s, émis par Primeur au nom et pour le compte %s (mandat de facturation)",
		doc.Number, documents.Day(doc.IssueDate), grammar.De(seller))
	refers := fmt.Sprintf("la facture %s du %s", doc.Refers.Number, documents.Day(doc.Refers.Date))
	subject, body := "Avoir", "Bonjour,\n\n"
	switch doc.Kind {
	case billing.KindDiscount:
		subject = "Avoir d'escompte"
		body += fmt.Sprintf("Veuillez trouver ci-joint l'avoir d'escompte %s : il accorde l'escompte de %s %% pour le "+
			"paiement de %s reçu dans le délai, et en réduit d'autant le montant HT et la TVA.\n\n", issued, terms.Percent(doc.Discount), refers) +
			fmt.Sprintf("Montant TTC : %s\nCe montant a été déduit du règlement de la facture %s.\n", documents.Euros(doc.TotalTTC), doc.Refers.Number)
	case billing.KindComplement:
		subject = "Facture complémentaire"
		body += fmt.Sprintf("Veuillez trouver ci-joint la facture complémentaire %s : elle règle la réclamation acceptée sur "+
			"la livraison du %s, et corrige %s.\n\n", strings.Replace(issued, ", émis par", ", émise par", 1), day, refers) +
			fmt.Sprintf("Montant TTC : %s\nÉchéance : %s\n", documents.Euros(doc.TotalTTC), documents.Day(doc.DueDate))
	default:
		body += fmt.Sprintf("Veuillez trouver ci-joint l'avoir %s : il règle la réclamation acceptée sur la livraison du %s, "+
			"et corrige %s.\n\n", issued, day, refers) +
			fmt.Sprintf("Montant TTC : %s\nCe montant est à déduire du règlement de la facture %s.\n", documents.Euros(doc.TotalTTC), doc.Refers.Number)
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "credit-" + doc.ID,
		To:      to,
		Subject: fmt.Sprintf("%s %s — %s — facture %s", subject, doc.Number, seller, doc.Refers.Number),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.InvoiceFileName(doc.Number), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

// documentReady is the SQL condition that the invoice or credit note t (a
// table's alias) can be emailed now: someone it goes to
// (invoiceRecipients) has a confirmed login — an owner or an accountant of
// the shop or of the producer (notify.DocumentRoles), whoever founded
// either (PRODUCT §13 "Confirming an email").
func documentReady(t string) string {
	return `(` + notify.ReachableSQL(t+".distributor_id", notify.DocumentRoles) + ` OR ` +
		notify.ReachableSQL(t+".producer_id", notify.DocumentRoles) + `)`
}
