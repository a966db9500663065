package demo

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/supplied"
	"primeur/core/trade"
)

// makers are the demo's producers of dairy and meat (issue 39): they list
// their own products with labels and photos, and the dairy proposes its
// tomme on a shop's need. They take no part in the fruit-and-vegetable
// trade of the other steps.
var makers = []party{
	{name: "Fruitière des Aravis", email: "fruitiere-des-aravis@demo.primeur.fr", siren: "512638479", siret: "51263847900018",
		ape: "1051C", capital: "30000", legal: "SCA au capital de 30 000 €, RCS Annecy", cert: "",
		address: [3]string{"Route du Col des Aravis", "74450 Le Grand-Bornand", ""}, lat: "45.9420", lon: "6.4280",
		days: "0101000", vat: true, bank: "18106"},
	{name: "Ferme du Chéran", email: "ferme-du-cheran@demo.primeur.fr", siren: "734196256", siret: "73419625600014",
		ape: "0142Z", capital: "5000", legal: "EARL au capital de 5 000 €, RCS Annecy", cert: "Agriculture biologique (FR-BIO-01)",
		address: [3]string{"Chemin des Bauges", "74540 Cusy", ""}, lat: "45.7650", lon: "6.0300",
		days: "0010100", vat: true, bank: "30002"},
}

// makerProduct is a product a maker lists, and the colour of its photo.
type makerProduct struct {
	maker int
	in    supplied.Input
	shade color.RGBA
}

var makerProducts = []makerProduct{
	{0, supplied.Input{Type: "tomme-de-savoie", Name: "Tomme de Savoie fermière", Packaging: "pièce", UnitQuantity: 1.5,
		Labels: []string{"igp"}, Months: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, RefPrice: 14.5}, color.RGBA{226, 196, 120, 255}},
	{0, supplied.Input{Type: "reblochon", Name: "Reblochon fermier", Labels: []string{"aop"}, UnitQuantity: 1,
		Months: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, RefPrice: 8.9}, color.RGBA{240, 222, 170, 255}},
	{0, supplied.Input{Type: "beurre-cru", Name: "Beurre cru de la fruitière", Packaging: "motte", UnitQuantity: 0.25,
		Months: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, RefPrice: 16}, color.RGBA{250, 232, 140, 255}},
	{1, supplied.Input{Type: "boeuf-bourguignon", Name: "Bœuf bourguignon bio", Packaging: "colis", UnitQuantity: 5,
		Labels: []string{"ab"}, Certifier: "FR-BIO-01", Months: []int{1, 2, 3, 10, 11, 12}, RefPrice: 17.5}, color.RGBA{150, 40, 40, 255}},
	{1, supplied.Input{Type: "poulet-label-rouge-entier", Name: "Poulet fermier Label Rouge", Labels: []string{"label-rouge", "hve"},
		UnitQuantity: 1, Months: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, RefPrice: 13}, color.RGBA{214, 160, 100, 255}},
}

// demoPhoto is a small generated photo: a disc of the product's shade on a
// wooden board, 240×180.
func demoPhoto(shade color.RGBA) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 240, 180))
	for y := range 180 {
		for x := range 240 {
			c := color.RGBA{170, 130, 90, 255}
			if dx, dy := x-120, y-90; dx*dx+dy*dy < 70*70 {
				c = shade
			}
			img.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // a bytes.Buffer does not fail
	return b.Bytes()
}

// seedProducts adds the makers, their products with their photos, and the
// dairy's proposal of its tomme on the first shop's need for next month.
func seedProducts(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	var users []accounts.User
	for k, p := range makers {
		u, err := insertParty(ctx, tx, w, len(shops)+len(producers)+k, p, false)
		if err != nil {
			return err
		}
		users = append(users, u)
	}
	var tomme supplied.Product
	for _, mp := range makerProducts {
		p, err := supplied.Create(ctx, tx, users[mp.maker].ID, mp.in, w.Now)
		if err != nil {
			return fmt.Errorf("product %s: %w", mp.in.Name, err)
		}
		// Decoding a 240×180 picture takes a millisecond: inside the
		// transaction, as the rest of the seeding.
		ph, err := supplied.MakePhoto(ctx, "photo", demoPhoto(mp.shade))
		if err != nil {
			return err
		}
		if p, err = supplied.SetPhoto(ctx, tx, users[mp.maker].ID, p.ID, ph, w.Now); err != nil {
			return err
		}
		if mp.in.Type == "tomme-de-savoie" {
			tomme = p
		}
	}
	if len(w.Shops) == 0 {
		return nil
	}
	month := w.Now.AddDate(0, 1, 1-w.Now.Day()).Format("2006-01-02")
	if _, err := planning.WriteAll(ctx, tx, w.Shops[0].ID, []planning.Cell{{ProductID: "tomme-de-savoie", Month: month,
		Quantity: 3000}}, w.Now); err != nil {
		return fmt.Errorf("tomme need: %w", err)
	}
	var needID string
	if err := store.Get(ctx, tx, &needID, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		w.Shops[0].ID, "tomme-de-savoie", month); err != nil {
		return fmt.Errorf("tomme need: %w", err)
	}
	if _, err := trade.Propose(ctx, tx, users[0], needID, users[0].ID, trade.Offer{Quantity: 15, Price: 14.5, Product: &tomme.ID}, w.Now); err != nil {
		return fmt.Errorf("tomme proposal: %w", err)
	}
	return nil
}
