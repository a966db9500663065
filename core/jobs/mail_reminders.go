package jobs

import (
	"context"
	"fmt"
	netmail "net/mail"
	"slices"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/decimal"
	"primeur/core/documents"
	"primeur/core/grammar"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/payments"
	"primeur/core/printable"
)

// The emails of payments: the reminders of overdue documents.

// The selections of the documents to email list only those that can go
// now — a recipient's address is confirmed (notify.ReachableSQL), or
// there is nothing to send — so that a document waiting for a confirmation
// costs a run a look-up of its addresses in the query (an index seek on
// SQLite, a probe of the addresses PostgreSQL hashes once per query), not
// a claim, a load and a release: the deliveries job runs every 5 minutes.
// A document is listed by the first run after its recipient confirms. The
// claim of an invoice or a credit note checks the same condition
// (slot.ready): the invoices job hands each invoice to the send workers as
// it issues it, unselected. errWaiting still covers an address unconfirmed
// between the claim and the send.
var (
	// reminderReady: the reminder's first document (sendReminder writes
	// to its recipients) is ready. A reminder whose document is missing
	// is listed, and fails as before.
	reminderReady = `NOT EXISTS (SELECT 1 FROM documents i WHERE i.id = (SELECT MIN(rd.document_id) FROM reminder_documents rd
			WHERE rd.reminder_id = t.id) AND NOT ` + documentReady("i") + `)`
	// cutoffReady: an owner or a sales member of the producer has a
	// confirmed login (sendCutoff writes to them).
	cutoffReady = notify.ReachableSQL("t.producer_id", notify.CutoffRoles)
	// digestReady: the person's login email is confirmed; or there is
	// nothing to send (a closed organisation or person, a person no longer
	// a member, no line left), which sendDigest drops at once.
	digestReady = `(NOT EXISTS (SELECT 1 FROM notifications n WHERE n.digest_id = t.id)
		OR EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND u.closed_at IS NOT NULL)
		OR NOT EXISTS (SELECT 1 FROM members m WHERE m.person_id = COALESCE(t.person_id, t.user_id) AND m.org_id = t.user_id)
		OR EXISTS (SELECT 1 FROM people pe WHERE pe.id = COALESCE(t.person_id, t.user_id)
			AND (pe.closed_at IS NOT NULL OR pe.email_confirmed = pe.email_key)))`
)

func sendReminders(ctx context.Context, env Env, now time.Time) (int, error) {
	n, err := sendPending(ctx, env, reminderSlot, now, sendReminder)
	return n.sent, err
}

// sendReminder emails a reminder of overdue documents to the shop (its
// accounting address when set) and the producer: every document of the
// pair left to pay after its due date (payments.ReminderLines), each with
// its balance, due date and reminder step, and its PDF; the late-payment
// rate in force and the 40 € indemnity; answers go to the producer
// (Reply-To, its login email once confirmed).
func sendReminder(ctx context.Context, env Env, id string, now time.Time) error {
	r, err := payments.GetReminder(ctx, env.DB, id)
	if err != nil {
		return err
	}
	if len(r.Documents) == 0 {
		return ownFailure{fmt.Errorf("jobs: reminder %s without documents", id)}
	}
	today := env.Rules.Today(now)
	lines, err := payments.ReminderLines(ctx, env.DB, r, today)
	if err != nil {
		return err
	}
	docs := map[string]billing.Invoice{}
	for _, docID := range append(slices.Clone(r.Documents), lineIDs(lines)...) {
		if _, ok := docs[docID]; ok {
			continue
		}
		doc, err := billing.Document(ctx, env.DB, docID)
		if err != nil {
			return err
		}
		docs[docID] = doc
	}
	// The recipients of the reminder's first document, as reminderReady
	// selects it.
	first := docs[r.Documents[0]]
	to, err := env.invoiceRecipients(ctx, first)
	if err != nil {
		return err
	}
	replyTo, err := env.producerReplyTo(ctx, r.ProducerID)
	if err != nil {
		return err
	}
	seller := printable.Line(first.Seller.Name)
	subject, opening := "Relance", "Sauf erreur de notre part, "
	if r.Step == payments.SecondReminder {
		subject, opening = "Deuxième relance", "Malgré une première relance, et sauf erreur de notre part, "
	}
	body := "Bonjour,\n\n" + opening +
		fmt.Sprintf("les factures suivantes %s restent à payer après leur échéance :\n\n", grammar.De(seller))
	var total decimal.Dec
	var attachments []mail.Attachment
	for _, l := range lines {
		d := docs[l.ID]
		total += l.Balance
		body += fmt.Sprintf("- %s du %s, échéance le %s : reste à payer %s (%s)\n", d.Number, documents.Day(d.IssueDate),
			documents.Day(d.DueDate), documents.Euros(l.Balance), reminderStep(l))
		pdf, err := env.Render.invoice(d)
		if err != nil {
			return ownFailure{fmt.Errorf("jobs: reminder %s: %s: %w", id, d.Number, err)}
		}
		attachments = append(attachments, mail.Attachment{Name: documents.InvoiceFileName(d.Number), ContentType: "application/pdf", Data: pdf})
	}
	body += fmt.Sprintf("\nTotal : %s\n\n", documents.Euros(total))
	if first.Seller.IBAN != "" {
		body += fmt.Sprintf("Règlement par virement : IBAN %s, BIC %s.\n", printable.Line(documents.IBAN(first.Seller.IBAN)),
			printable.Line(first.Seller.BIC))
	}
	body += "Si vous avez déjà envoyé ce paiement, déclarez-le depuis l'écran « À payer » de Primeur et ne tenez pas compte de ce message.\n\n" +
		latePaymentTerms(env.Rates, today) + "\n"
	if replyTo != "" {
		body += fmt.Sprintf("\nPour toute question sur ces factures, répondez à ce message : votre réponse parviendra %s.\n", grammar.A(seller))
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:         fmt.Sprintf("reminder-%s", r.ID),
		To:          to,
		ReplyTo:     replyTo,
		Subject:     fmt.Sprintf("%s : factures échues %s", subject, grammar.De(seller)),
		Body:        body,
		Date:        now,
		Attachments: attachments,
	})
}

func lineIDs(lines []payments.ReminderLine) []string {
	ids := make([]string, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	return ids
}

// reminderStep says where a document stands in its reminders.
func reminderStep(l payments.ReminderLine) string {
	switch {
	case l.Now && l.Step == payments.SecondReminder:
		return "deuxième relance"
	case l.Now:
		return "première relance"
	case l.Step == payments.SecondReminder:
		return "déjà relancée deux fois"
	case l.Step == payments.FirstReminder:
		return "déjà relancée une fois"
	}
	return "échue"
}

// latePaymentTerms states the late-payment rate in force today — the
// ECB's rate of the semester plus 10 points (payments.PenaltyRate) — and
// the 40 € indemnity, with their articles.
func latePaymentTerms(rates config.ECBRates, today string) string {
	day, _ := calendar.ParseDate(today)
	ecb, rate, _ := payments.PenaltyRate(rates, day)
	return fmt.Sprintf("Conformément aux conditions figurant sur les factures, tout retard de paiement rend exigibles, dès le lendemain "+
		"de l'échéance, des pénalités de retard au taux annuel de %s (taux de refinancement de la Banque centrale européenne "+
		"en vigueur au %s, %s, majoré de 10 points ; art. L441-10 du Code de commerce) et une indemnité forfaitaire pour frais "+
		"de recouvrement de %s par facture (art. D441-5 du Code de commerce).",
		documents.Percent(rate), calendar.SemesterOf(day).First().French(), documents.Percent(ecb), documents.Euros(payments.Indemnity))
}

// producerReplyTo is where a shop's answer to what Primeur sends on a
// producer's behalf goes: the producer's login email once confirmed, with
// its name; "" else.
func (e Env) producerReplyTo(ctx context.Context, producerID string) (string, error) {
	p, err := accounts.ByID(ctx, e.DB, producerID)
	if err != nil {
		return "", err
	}
	ok, err := accounts.ConfirmedAddresses(ctx, e.DB, []string{p.Email})
	if err != nil || len(ok) == 0 {
		return "", err
	}
	return (&netmail.Address{Name: printable.Line(p.Name), Address: ok[0]}).String(), nil
}
