// Package mydata writes what Primeur holds of an account as a zip (RGPD
// art. 15 and 20): its profile, needs, orders with deliveries, activity and
// payments as JSON, the invoices and credit notes it is a party to as
// Factur-X PDF, the pictures it took (a shop's reception photos and
// signatures, core/images, and a producer's product photos), a producer's
// round orders (round_stops), and its products, offers and suggested types. The daemon serves it (GET /print/mydata), the CLI writes it
// for an administrator (primeur user export).
package mydata

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/catalogadmin"
	"primeur/core/documents"
	"primeur/core/images"
	"primeur/core/offers"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/supplied"
)

// Readme is the first file of an export.
const Readme = `Vos données sur Primeur

compte.json       votre compte : identité, adresses, coordonnées bancaires, jours de livraison, conditions de paiement
besoins.json      les besoins (magasin : les vôtres ; producteur : ceux sur lesquels vous avez proposé), avec vos propositions et engagements
commandes.json    vos commandes et leurs livraisons (quantités, prix, réclamations)
activite.json     le fil d'activité : ce que vous avez fait, et ce qu'on vous a adressé
paiements.json    par partenaire, les factures et avoirs avec ce qu'il reste à payer, et les paiements
tournees.json     producteur : l'ordre des arrêts de vos tournées que vous avez choisi, par jour
produits.json     producteur : vos produits (retirés de la vente compris), vos offres et ce que les magasins en ont pris, vos suggestions de types
documents/        les factures, avoirs et factures complémentaires (PDF Factur-X) où vous êtes partie
images/           les photos et signatures de vos réceptions de livraisons (nommées dans commandes.json)
personne.json     vous : nom, adresse de connexion, vos organisations et votre rôle, ce que vous y avez fait

Montants en euros, dates au format AAAA-MM-JJ ou RFC 3339.
`

// FileName is the export's name on day today ("YYYY-MM-DD").
func FileName(today string) string { return "primeur-mes-donnees-" + today + ".zip" }

// Write writes u's export into z, as of now (today, "YYYY-MM-DD", in the
// business time zone), reading q. It does not close z.
func Write(ctx context.Context, q store.Q, z *zip.Writer, u accounts.User, now time.Time, today string) error {
	file := func(name string, data []byte) error {
		f, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	jsonFile := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return file(name, data)
	}
	if err := file("LISEZMOI.txt", []byte(Readme)); err != nil {
		return err
	}
	if err := jsonFile("compte.json", u.Profile()); err != nil {
		return err
	}
	needs := planning.Filter{DistributorID: u.ID}
	of := orders.Filter{DistributorID: u.ID}
	producer, shop := "", u.ID
	if u.IsProducer() {
		needs = planning.Filter{TradedBy: u.ID, OnlyProposalsOf: u.ID}
		of = orders.Filter{ProducerID: u.ID}
		producer, shop = u.ID, ""
	}
	ns, err := planning.List(ctx, q, needs)
	if err != nil {
		return err
	}
	if err := jsonFile("besoins.json", ns); err != nil {
		return err
	}
	ords, err := orders.LoadViews(ctx, q, of, u.ID)
	if err != nil {
		return err
	}
	if err := jsonFile("commandes.json", ords); err != nil {
		return err
	}
	var feed []activity.View
	for before := ""; ; {
		page, err := activity.Feed(ctx, q, u.ID, before, 200)
		if err != nil {
			return err
		}
		feed = append(feed, page...)
		if len(page) < 200 {
			break
		}
		before = page[len(page)-1].ID
	}
	if err := jsonFile("activite.json", feed); err != nil {
		return err
	}
	accs, err := payments.Accounts(ctx, q, producer, shop, today)
	if err != nil {
		return err
	}
	if err := jsonFile("paiements.json", accs); err != nil {
		return err
	}
	if u.IsProducer() {
		rounds, err := roundsOf(ctx, q, u.ID)
		if err != nil {
			return err
		}
		if err := jsonFile("tournees.json", rounds); err != nil {
			return err
		}
		products, err := productsOf(ctx, q, u.ID)
		if err != nil {
			return err
		}
		if err := jsonFile("produits.json", products); err != nil {
			return err
		}
	}
	for _, o := range ords {
		docs, err := billing.Credits(ctx, q, o.ID, "", "")
		if err != nil {
			return err
		}
		inv, err := billing.ForOrder(ctx, q, o.ID)
		switch {
		case errors.Is(err, core.ErrNotFound):
		case err != nil:
			return err
		default:
			docs = append([]billing.Invoice{inv}, docs...)
		}
		for _, doc := range docs {
			pdf, err := documents.Invoice(doc)
			if err != nil {
				return err
			}
			if err := file("documents/"+documents.InvoiceFileName(doc.Number), pdf); err != nil {
				return err
			}
		}
	}
	ids, err := images.IDsOf(ctx, q, u.ID)
	if err != nil {
		return err
	}
	for _, id := range ids { // one in memory at a time: a picture is up to a few hundred KB
		img, err := images.Get(ctx, q, id)
		if err != nil {
			return err
		}
		if err := file("images/"+img.ID+img.Ext(), img.Data); err != nil {
			return err
		}
	}
	return nil
}

// Products is what a producer's export holds of what it sells (issue
// 39): its own products, retired ones included; its offers and the takes
// of them (a shop's take is its need and commitment, in its besoins.json);
// its suggestions of types.
type Products struct {
	Products    []supplied.Product        `json:"produits"`
	Offers      []offers.Offer            `json:"offres"`
	Takes       []offers.Taken            `json:"prises"`
	Suggestions []catalogadmin.Suggestion `json:"suggestions"`
}

func productsOf(ctx context.Context, q store.Q, producerID string) (Products, error) {
	ps, err := supplied.ExportOf(ctx, q, producerID)
	if err != nil {
		return Products{}, err
	}
	os, err := offers.ExportOf(ctx, q, producerID)
	if err != nil {
		return Products{}, err
	}
	ss, err := catalogadmin.Suggestions(ctx, q, producerID, false)
	if err != nil {
		return Products{}, err
	}
	return Products{Products: ps, Offers: os.Offers, Takes: os.Takes, Suggestions: ss}, nil
}

// Round is a day of a producer's round as it chose its order (PRODUCT §16
// "The farmer's day": table round_stops), in its export.
type Round struct {
	Date  string `json:"date"`
	Stops []Stop `json:"stops"`
}

// Stop is a shop's place in a round.
type Stop struct {
	Position int    `json:"position"`
	ShopID   string `json:"shopId"`
	Shop     string `json:"shop"`
}

// roundsOf reads the round orders producerID chose by hand, by date.
func roundsOf(ctx context.Context, q store.Q, producerID string) ([]Round, error) {
	var rows []struct {
		Date     string `db:"date"`
		Position int    `db:"position"`
		ShopID   string `db:"shop_id"`
		Shop     string `db:"name"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT r.date, r.position, r.shop_id, u.name FROM round_stops r
		JOIN users u ON u.id = r.shop_id WHERE r.producer_id = ? ORDER BY r.date, r.position, r.shop_id`, producerID); err != nil {
		return nil, fmt.Errorf("mydata: rounds: %w", err)
	}
	rounds := []Round{}
	for _, r := range rows {
		if len(rounds) == 0 || rounds[len(rounds)-1].Date != r.Date {
			rounds = append(rounds, Round{Date: r.Date})
		}
		last := &rounds[len(rounds)-1]
		last.Stops = append(last.Stops, Stop{Position: r.Position, ShopID: r.ShopID, Shop: r.Shop})
	}
	return rounds, nil
}
