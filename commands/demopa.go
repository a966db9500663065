package commands

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/pa"
	"primeur/core/pa/patest"
	"primeur/core/store"
)

// The demo's approved platform (issue 38): `primeur serve --demo` starts
// the local PA of core/pa/patest in its process and connects the demo's
// first producer to it, so that a newcomer sees its invoices deposited and
// their statuses move — "Déposée" for most, "Refusée" by one shop, and
// "Encaissée" once the producer records a payment in full — in "À
// encaisser" and "À payer". The PA lives as long as the daemon; each start
// connects the producer to the new one (what was deposited keeps its
// statuses).

const (
	// demoPAProducer is the demo producer connected to the local PA.
	demoPAProducer = "ferme-des-glieres@demo.primeur.fr"
	// demoPARefuser is the SIREN of the demo shop whose invoices the
	// local PA lets refuse (210), Le Panier des Aravis.
	demoPARefuser = "753218643"
	demoPAClient  = "demo-primeur"
	demoPASecret  = "demo-secret-local-pa"
)

// demoPA starts the local PA and connects the demo producer to it, its
// documents of the current and the previous month deposited. It returns
// the PA (Close it after the daemon) and the function that gives it the
// daemon's webhook once the daemon listens. A demo world without its
// producer (another database) starts nothing.
func (a *app) demoPA(ctx context.Context, db *store.DB, log *slog.Logger) (*patest.Server, func(addr string), error) {
	u, err := accounts.ByEmail(ctx, db, demoPAProducer)
	if err != nil {
		log.Info("demo: no demo producer; no local approved platform", "email", demoPAProducer)
		return nil, func(string) {}, nil
	}
	// The directory knows every demo shop but the refusing one, whose
	// invoices then say that it has no line (PRODUCT §16).
	var sirets []string
	if err := store.Select(ctx, db, &sirets, `SELECT siret FROM users WHERE type = ? AND LENGTH(siret) = 14`, accounts.Distributor); err != nil {
		return nil, nil, fmt.Errorf("demo: the local approved platform's directory: %w", err)
	}
	var lines []pa.DirectoryLine
	for _, siret := range sirets {
		if siren := siret[:9]; siren != demoPARefuser {
			lines = append(lines, pa.DirectoryLine{AddressingIdentifier: siren, SIREN: siren})
		}
	}
	srv, err := patest.Start(patest.Config{ClientID: demoPAClient, ClientSecret: demoPASecret, Directory: lines, Rule: func(inv patest.Invoice) patest.Decision {
		if inv.Buyer == demoPARefuser {
			return patest.Decision{Outcome: patest.Refuse, ReasonCode: "NON_CONFORME", Reason: "Marchandise non conforme à la commande"}
		}
		return patest.Decision{}
	}})
	if err != nil {
		return nil, nil, fmt.Errorf("demo: the local approved platform: %w", err)
	}
	keys, err := pa.EnsureKeys(pa.KeyPath(a.cfg.DataDir))
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	now := a.clock().Now()
	y, m, _ := now.In(a.cfg.Location).Date()
	from := calendar.Civil(y, m-1, 1).At(0, a.cfg.Location)
	if old, ok, err := pa.One(ctx, db, keys, u.ID); err == nil && ok && old.DepositFrom.Before(from) {
		from = old.DepositFrom
	}
	if err := pa.Connect(ctx, db, keys, pa.Connection{ProducerID: u.ID, FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(),
		DirectoryURL: srv.DirectoryURL(), ClientID: demoPAClient, Secret: demoPASecret, ConnectedAt: now, DepositFrom: from}); err != nil {
		srv.Close()
		return nil, nil, err
	}
	// Without its scheme: the line that follows is the one that gives
	// the daemon's address.
	fmt.Fprintf(a.out, "Plateforme agréée de démonstration sur %s : %s y dépose ses factures\n",
		strings.TrimPrefix(srv.FlowURL(), "http://"), demoPAProducer)
	return srv, func(addr string) {
		srv.SetWebhook(webhookURL(addr, u.ID), keys.WebhookToken(u.ID))
	}, nil
}

// webhookURL is the daemon's webhook of a producer, reached on this
// machine: the listen address with its unspecified host made loopback.
func webhookURL(addr, producerID string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + "/pa/webhook/" + url.PathEscape(producerID)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/pa/webhook/" + url.PathEscape(producerID)
}

// demoPAClose stops the local PA, if any, once the daemon is stopped.
func demoPAClose(srv *patest.Server) {
	if srv == nil {
		return
	}
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}
