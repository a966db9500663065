// Package catalogadmin holds what an administrator does to the catalogue
// of product types (primeur catalogue, PRODUCT §14 "Catalogue"): add a
// type, rename it, merge one into another, retire one. Each runs in the
// caller's transaction and refuses, in French, what it cannot do, changing
// nothing then.
package catalogadmin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/trade"
)

// Refusals, as the CLI prints them.
const (
	MsgNoName        = "le nom du produit est vide"
	MsgNameTaken     = "un produit s'appelle déjà « %s » (%s)"
	MsgIDTaken       = "l'identifiant « %s » est déjà pris"
	MsgBadID         = "identifiant « %s » invalide : des lettres minuscules sans accent, des chiffres et des tirets"
	MsgUnknown       = "produit inconnu « %s »"
	MsgUnknownFamily = "famille inconnue « %s » ; familles : %s"
	MsgUnknownUnit   = "unité inconnue « %s » ; unités : %s"
	MsgBadRate       = "taux de TVA « %s » invalide : un pourcentage entre 0 et 100, par exemple 5,5 ou 20"
	MsgSame          = "un produit ne peut pas être fusionné avec lui-même"
	MsgRetiredInto   = "le produit « %s » est retiré du catalogue : fusionnez dans un produit en usage"
	MsgUnits         = "le catalogue compte « %s » en %s et « %s » en %s : les quantités de leurs besoins ne s'additionnent pas"
	MsgBothPlanned   = "%d magasin(s) ont des besoins de « %s » et de « %s » le même mois (%s) : regroupez ces besoins avant de fusionner"
	MsgAlreadyGone   = "le produit « %s » est déjà retiré du catalogue"
)

// refuse is a refusal the CLI prints as it is.
func refuse(format string, a ...any) error {
	return core.Refuse(core.ErrConflict, fmt.Sprintf(format, a...))
}

// AddInput is a new product type.
type AddInput struct {
	ID, Name, Family, Unit string
	// VAT is the rate in percent as typed ("5,5", "20"); "" is 5.5 %.
	VAT string
	// Season is "5-9" (May to September) or "" (all year).
	Season string
}

// Add adds a product type and returns it: its id the one given, else made
// from its name ("Tomme de Savoie" → tomme-de-savoie).
func Add(ctx context.Context, q store.Q, in AddInput) (catalog.Product, error) {
	name := strings.Join(strings.Fields(in.Name), " ")
	key := catalog.NameKey(name)
	if key == "" {
		return catalog.Product{}, refuse(MsgNoName)
	}
	id := in.ID
	if id == "" {
		id = strings.ReplaceAll(key, " ", "-")
	}
	if !validID(id) {
		return catalog.Product{}, refuse(MsgBadID, id)
	}
	if err := nameFree(ctx, q, key, ""); err != nil {
		return catalog.Product{}, err
	}
	if _, err := catalog.ByID(ctx, q, id); err == nil {
		return catalog.Product{}, refuse(MsgIDTaken, id)
	} else if !errors.Is(err, core.ErrNotFound) {
		return catalog.Product{}, err
	}
	fs, err := catalog.Families(ctx, q)
	if err != nil {
		return catalog.Product{}, err
	}
	var ids []string
	found := false
	for _, f := range fs {
		ids = append(ids, f.ID)
		found = found || f.ID == in.Family
	}
	if !found {
		return catalog.Product{}, refuse(MsgUnknownFamily, in.Family, strings.Join(ids, ", "))
	}
	unit := in.Unit
	if unit == "" {
		unit = catalog.Kg
	}
	if _, ok := catalog.UnitOf(unit); !ok {
		return catalog.Product{}, refuse(MsgUnknownUnit, unit, strings.ReplaceAll(catalog.UnitIDs, ",", ", "))
	}
	rate := int64(550)
	if in.VAT != "" {
		var ok bool
		if rate, ok = catalog.ParseRate(in.VAT); !ok {
			return catalog.Product{}, refuse(MsgBadRate, in.VAT)
		}
	}
	coefs, ok := catalog.SeasonCoefs(in.Season)
	if !ok {
		return catalog.Product{}, refuse("saison « %s » invalide : deux mois, par exemple 5-9 (mai à septembre)", in.Season)
	}
	raw := make([]string, 12)
	for i, c := range coefs {
		raw[i] = fmt.Sprint(c)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs, family_id, vat_rate)
		VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?)`, id, name, key, unit, strings.Join(raw, ","), in.Family, rate); err != nil {
		return catalog.Product{}, fmt.Errorf("catalogadmin: add %s: %w", id, err)
	}
	return catalog.ByID(ctx, q, id)
}

// validID reports an id of lower-case ASCII letters, digits and inner
// dashes, as the catalogue's are.
func validID(id string) bool {
	if id == "" || len(id) > 80 || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// nameFree refuses a name another product than except already has.
func nameFree(ctx context.Context, q store.Q, key, except string) error {
	var other []struct {
		ID   string `db:"id"`
		Name string `db:"name"`
	}
	if err := store.Select(ctx, q, &other, `SELECT id, name FROM products WHERE name_key = ? AND id <> ?`, key, except); err != nil {
		return fmt.Errorf("catalogadmin: name: %w", err)
	}
	if len(other) > 0 {
		return refuse(MsgNameTaken, other[0].Name, other[0].ID)
	}
	return nil
}

// get returns a product, or the refusal of an unknown id.
func get(ctx context.Context, q store.Q, id string) (catalog.Product, error) {
	p, err := catalog.ByID(ctx, q, id)
	if errors.Is(err, core.ErrNotFound) {
		return p, refuse(MsgUnknown, id)
	}
	return p, err
}

// Rename gives a product type a new name; documents already issued keep
// the name they were issued with.
func Rename(ctx context.Context, q store.Q, id, name string) (catalog.Product, error) {
	p, err := get(ctx, q, id)
	if err != nil {
		return p, err
	}
	name = strings.Join(strings.Fields(name), " ")
	key := catalog.NameKey(name)
	if key == "" {
		return p, refuse(MsgNoName)
	}
	if err := nameFree(ctx, q, key, id); err != nil {
		return p, err
	}
	if _, err := store.Exec(ctx, q, `UPDATE products SET name = ?, name_key = ? WHERE id = ?`, name, key, id); err != nil {
		return p, fmt.Errorf("catalogadmin: rename %s: %w", id, err)
	}
	return catalog.ByID(ctx, q, id)
}

// Retire takes a product type out of use: its needs, proposals,
// commitments, deliveries and documents stay; no new need is taken
// (planning.MsgRetired), and the interface no longer offers it.
func Retire(ctx context.Context, q store.Q, id string, now time.Time) (catalog.Product, error) {
	p, err := get(ctx, q, id)
	if err != nil {
		return p, err
	}
	if p.Retired {
		return p, refuse(MsgAlreadyGone, p.Name)
	}
	if _, err := store.Exec(ctx, q, `UPDATE products SET retired_at = ? WHERE id = ?`, now.UnixMilli(), id); err != nil {
		return p, fmt.Errorf("catalogadmin: retire %s: %w", id, err)
	}
	return catalog.ByID(ctx, q, id)
}

// Merged is what Merge moved.
type Merged struct {
	From          catalog.Product `json:"from"`
	Into          catalog.Product `json:"into"`
	Needs         int64           `json:"needs"`
	DeliveryLines int64           `json:"deliveryLines"`
}

// Merge merges the product type from into into: its needs (their
// proposals and commitments with them), delivery lines and price
// comparison's sums move to into; from is retired, merged_into naming into.
// Documents already issued keep their lines as issued. Refused, changing
// nothing, when the two are one, into is retired, their units differ, or a
// shop has needs of both in one month (they would be one need).
func Merge(ctx context.Context, q store.Q, from, into string, now time.Time) (Merged, error) {
	var m Merged
	if from == into {
		return m, refuse(MsgSame)
	}
	var err error
	if m.From, err = get(ctx, q, from); err != nil {
		return m, err
	}
	if m.Into, err = get(ctx, q, into); err != nil {
		return m, err
	}
	if m.Into.Retired {
		return m, refuse(MsgRetiredInto, m.Into.Name)
	}
	if m.From.Unit != m.Into.Unit {
		return m, refuse(MsgUnits, m.From.Name, catalog.UnitName(m.From.Unit), m.Into.Name, catalog.UnitName(m.Into.Unit))
	}
	var both []struct {
		Shop  string `db:"distributor_id"`
		Month string `db:"month"`
	}
	if err := store.Select(ctx, q, &both, `SELECT a.distributor_id, a.month FROM needs a JOIN needs b
		ON b.distributor_id = a.distributor_id AND b.month = a.month AND b.product_id = ?
		WHERE a.product_id = ? ORDER BY a.month, a.distributor_id`, into, from); err != nil {
		return m, fmt.Errorf("catalogadmin: merge %s: %w", from, err)
	}
	if len(both) > 0 {
		months := []string{}
		for _, b := range both {
			if len(months) == 0 || months[len(months)-1] != b.Month[:7] {
				months = append(months, b.Month[:7])
			}
		}
		return m, refuse(MsgBothPlanned, len(both), m.From.Name, m.Into.Name, strings.Join(months, ", "))
	}
	if m.Needs, err = store.Exec(ctx, q, `UPDATE needs SET product_id = ? WHERE product_id = ?`, into, from); err != nil {
		return m, fmt.Errorf("catalogadmin: merge the needs of %s: %w", from, err)
	}
	if m.DeliveryLines, err = store.Exec(ctx, q, `UPDATE delivery_lines SET product_id = ? WHERE product_id = ?`, into, from); err != nil {
		return m, fmt.Errorf("catalogadmin: merge the deliveries of %s: %w", from, err)
	}
	if err := trade.MovePrices(ctx, q, from, into); err != nil {
		return m, err
	}
	if _, err := store.Exec(ctx, q, `UPDATE products SET retired_at = COALESCE(retired_at, ?), merged_into = ? WHERE id = ?`,
		now.UnixMilli(), into, from); err != nil {
		return m, fmt.Errorf("catalogadmin: merge %s: %w", from, err)
	}
	m.From, err = catalog.ByID(ctx, q, from)
	return m, err
}
