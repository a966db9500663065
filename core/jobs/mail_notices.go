package jobs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"primeur/core/cutoff"
	"primeur/core/documents"
	"primeur/core/grammar"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/printable"
)

// The emails of notices: the producers' reminders of the 25th (cutoff)
// and the digests of notifications.

func sendCutoffs(ctx context.Context, env Env, now time.Time) (int, error) {
	n, err := sendPending(ctx, env, cutoffSlot, now, sendCutoff)
	return n.sent, err
}

// sendCutoff emails a producer the shops' needs still open for next month
// (cutoff.Create), a link to each shop's needs, and how to turn it off.
func sendCutoff(ctx context.Context, env Env, id string, now time.Time) error {
	n, err := cutoff.Get(ctx, env.DB, id)
	if err != nil {
		return err
	}
	to, err := env.recipients(ctx, notify.CutoffRoles, n.ProducerID)
	if err != nil {
		return err
	}
	month := documents.Month(n.Month)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("Les magasins ont encore des besoins ouverts pour %s parmi les produits que vous vendez :\n\n", month)
	for i := 0; i < len(n.Needs); {
		shop := n.Needs[i].ShopID
		var goods []string
		for ; i < len(n.Needs) && n.Needs[i].ShopID == shop; i++ {
			goods = append(goods, printable.Line(n.Needs[i].ProductName)+" "+grammar.Quantity(n.Needs[i].Available, n.Needs[i].Unit))
		}
		line := "- " + printable.Line(n.Needs[i-1].ShopName) + " : " + strings.Join(goods, ", ") + "\n"
		if env.BaseURL != "" {
			line += "  " + env.BaseURL + "/prod/needs/" + shop + "\n"
		}
		body += line
	}
	body += "\nProposez vos quantités et vos prix avant le début du mois : les magasins répondent à vos propositions.\n" +
		"Pour ne plus recevoir ce rappel, décochez « Rappel du 25 » dans votre profil.\n" + signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "cutoff-" + id,
		To:      to,
		Subject: "Besoins ouverts pour " + month,
		Body:    body,
		Date:    now,
	})
}

// sendDigests emails the digests due, and drops those with nothing left
// to say (sendDigest).
func sendDigests(ctx context.Context, env Env, now time.Time) (tally, error) {
	return sendPending(ctx, env, digestSlot, now, sendDigest)
}

// sendDigest emails a digest of notifications: its lines under the
// heading of their kind, each with its link into the app, and how to stop
// each kind — a link that needs no login, also given to mail clients as
// List-Unsubscribe (RFC 8058).
func sendDigest(ctx context.Context, env Env, id string, now time.Time) error {
	d, err := notify.Get(ctx, env.DB, id)
	if err != nil {
		return err
	}
	if d.Closed {
		return fmt.Errorf("jobs: digest %s: the account is closed: %w", id, errDropped)
	}
	if len(d.Lines) == 0 {
		return fmt.Errorf("jobs: digest %s: no line left: %w", id, errDropped)
	}
	to, err := env.reachable(ctx, d.Email)
	if err != nil {
		return err
	}
	kinds := d.Kinds()
	token, err := notify.UnsubscribeToken(ctx, env.DB, d.PersonID, d.UserID, kinds, env.wallClock())
	if err != nil {
		return err
	}
	site := strings.TrimSuffix(env.BaseURL, "/")
	body := "Bonjour,\n\nVoici ce qui attend votre attention sur Primeur"
	if d.Daily {
		body += " depuis hier"
	}
	body += " :\n"
	for _, kind := range kinds {
		body += "\n" + notify.Label(kind) + "\n"
		for _, l := range d.Lines {
			if l.Kind == kind {
				body += "- " + l.Line + "\n  " + site + l.Link + "\n"
			}
		}
	}
	body += "\nVous choisissez dans votre profil, pour chaque type de notification, de la recevoir au plus une fois par heure, " +
		"dans un résumé quotidien à 7h, ou jamais.\n" +
		"Pour ne plus recevoir ces emails, sans vous connecter : " + site + "/landing/unsubscribe#" + token + "\n" + signature(env)
	subject := fmt.Sprintf("Primeur : %d nouveautés attendent votre réponse", len(d.Lines))
	if len(d.Lines) == 1 {
		subject = "Primeur : " + d.Lines[0].Line
	}
	return env.Mail.Send(ctx, mail.Message{
		Key:         "digest-" + id,
		To:          to,
		Subject:     subject,
		Body:        body,
		Date:        now,
		Unsubscribe: site + "/auth/unsubscribe/one-click?t=" + token,
	})
}
