package daemon

import (
	"context"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/mail"
	"primeur/core/printable"
	"primeur/core/store"
)

// bankChangedMail tells an account's confirmed login address that its bank
// details changed (PRODUCT §13 "Changing the bank details"): when, the new
// IBAN hidden but for its last 4 characters, and what to do when it was
// not its owner — the "changement de RIB" fraud needs a session, and this
// email reaches whoever owns the address.
func (d *Daemon) bankChangedMail(u accounts.User) mail.Message {
	now := d.now()
	when := calendar.DateOf(now).French() + " à " + strings.Replace(now.Format("15:04"), ":", " h ", 1)
	iban := "aucun (l'IBAN a été effacé)"
	if u.IBAN != "" {
		iban = accounts.MaskIBAN(u.IBAN)
	}
	bic := "aucun"
	if u.BIC != "" {
		bic = u.BIC
	}
	name := ""
	if n := strings.TrimSpace(printable.Line(u.Name)); n != "" {
		name = " (" + n + ")"
	}
	return mail.Message{
		Key:     "bank-changed-" + core.NewID(),
		To:      []string{u.Email},
		Subject: "Primeur : les coordonnées bancaires de votre compte ont été modifiées",
		Body: "Bonjour,\n\n" +
			"Les coordonnées bancaires de votre compte Primeur" + name + " ont été modifiées le " + when + ".\n\n" +
			"Nouvel IBAN : " + iban + "\n" +
			"BIC : " + bic + "\n\n" +
			"Elles figureront sur vos prochaines factures et dans les virements que les magasins préparent " +
			"depuis Primeur ; pendant 30 jours, Primeur leur signale que votre IBAN vient de changer.\n\n" +
			"Si vous n'êtes pas à l'origine de cette modification, quelqu'un a pu accéder à votre compte : " +
			"changez sans attendre votre mot de passe (« Mot de passe oublié ? » sur la page de connexion), " +
			"remettez votre IBAN dans votre profil, prévenez les magasins avec qui vous travaillez de ne pas " +
			"payer sur ce nouvel IBAN, et contactez-nous.\n" +
			mail.Signature(d.siteURL()),
		Date: now,
	}
}

// ibanChangedOn is, for a shop, the day each of the producers ids changed
// its IBAN, when within accounts.IBANNoticeFor (in the business time
// zone): the notice of its transfers. Nothing for a producer.
func (d *Daemon) ibanChangedOn(ctx context.Context, q store.Q, u accounts.User, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if !u.IsDistributor() {
		return out, nil
	}
	now := d.now()
	changes, err := accounts.IBANChanges(ctx, q, ids, now.Add(-accounts.IBANNoticeFor))
	if err != nil {
		return nil, err
	}
	for id, at := range changes {
		out[id] = calendar.DateOf(time.UnixMilli(at).In(now.Location())).String()
	}
	return out, nil
}
