// Package supplied holds producers' own products (issue 39, PRODUCT §3
// "Producers' products"): what a producer sells, each of a catalogue
// product type (core/catalog) with its own name ("Tomme de Savoie fermière"),
// its sale unit and what one holds in the type's unit (a "pièce de 1,5 kg"
// of a type planned in kg), its labels (AB with the certifier's code
// number, Label Rouge, AOP, IGP, HVE, Nature & Progrès, en conversion), its
// months of availability, a reference price and a photo in three sizes.
//
// The names follow the Data Food Consortium ontology: a Product here is a
// DFC SuppliedProduct (hasType: the catalogue type; its labels are its
// labelling characteristics), listed with its reference price as the
// producer's CatalogItem; a proposal naming it is the Offer (PRODUCT §3
// gives the mapping). Needs stay per product type and month: a product only
// says what the producer sells of a type, it does not change the unit a
// shop plans, proposals are made and documents bill in.
package supplied

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/images"
	"primeur/core/printable"
	"primeur/core/store"
)

// Bounds of what a producer lists.
const (
	// MaxProducts bounds the live products of one producer.
	MaxProducts = 500
	// MaxName and MaxPackaging bound the texts, in characters.
	MaxName      = 100
	MaxPackaging = 40
	// MaxUnitQuantity bounds what one sale unit holds in the type's unit.
	MaxUnitQuantity decimal.Dec = 10_000 * decimal.Hundred
	// MaxRefPrice bounds the reference price, euros per unit of the type.
	MaxRefPrice decimal.Dec = 100_000 * decimal.Hundred
)

// French refusals (PRODUCT §5).
const (
	MsgType            = "Choisissez le type de produit dans le catalogue."
	MsgTypeRetired     = "Ce type de produit a été retiré du catalogue : choisissez-en un autre."
	MsgName            = "Nommez le produit (100 caractères au plus)."
	MsgNameTaken       = "Vous avez déjà un produit de ce nom."
	MsgPackaging       = "Le conditionnement s'écrit en 40 caractères au plus."
	MsgUnitQuantity    = "Indiquez ce que contient une unité de vente dans l'unité du type : plus de 0, 10 000 au plus, 2 décimales au plus."
	MsgUnitQuantityInt = "Ce type se compte en unités entières : une unité de vente en contient un nombre entier."
	MsgUnitQuantityOne = "Sans conditionnement, le produit se vend dans l'unité du type : une unité de vente en contient 1."
	MsgLabel           = "Choisissez les labels dans la liste."
	MsgCertifier       = "Indiquez le numéro de l'organisme certificateur (FR-BIO-01 par exemple) : la mention biologique ne s'écrit pas sans lui."
	MsgBioOrConversion = "Un produit est biologique ou en conversion, pas les deux."
	MsgConversionPlant = "La mention « en conversion » est réservée aux produits végétaux (règlement (UE) 2018/848, article 30)."
	MsgMonths          = "Cochez au moins un mois de disponibilité (de 1 à 12)."
	MsgRefPrice        = "Le prix de référence est un montant HT en euros par unité du type : 0 ou plus, 2 décimales au plus."
	MsgTooMany         = "Vous avez déjà 500 produits en vente : retirez-en un avant d'en ajouter."
)

// PhotoPath is where a product's photo is served, followed by an image id
// (daemon: GET /print/product-photo/{imageId}).
const PhotoPath = "/print/product-photo/"

// Photo sizes: the longest side kept, in pixels, of each image a photo
// is made into.
var (
	Large  = images.Kind{Side: 1200}
	Medium = images.Kind{Side: 480}
	Small  = images.Kind{Side: 160}
)

// Photo is the URLs of a product's photo, one per size.
type Photo struct {
	Small  string `json:"small" doc:"URL of the photo, 160 px at most (lists)" example:"/print/product-photo/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"`
	Medium string `json:"medium" doc:"URL of the photo, 480 px at most (cards)"`
	Large  string `json:"large" doc:"URL of the photo, 1200 px at most"`
}

// Product is a producer's product as the API shows it (DFC:
// SuppliedProduct).
type Product struct {
	ID       string `json:"_id" example:"0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"`
	Producer string `json:"producer" doc:"The producer's id"`
	// Type is the catalogue product type (DFC hasType).
	Type     string `json:"productType" doc:"The catalogue product type it is of" example:"tomme-de-savoie"`
	TypeName string `json:"productTypeName" example:"Tomme de Savoie"`
	Family   string `json:"family" example:"fromages"`
	Unit     string `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot" doc:"The type's unit: needs, proposals and documents count in it"`
	Name     string `json:"name" example:"Tomme de Savoie fermière"`
	// Packaging names the sale unit ("pièce", "bocal"); "" when the
	// product sells in the type's unit.
	Packaging    string      `json:"packaging" example:"pièce" doc:"The sale unit's name; empty: sold in the type's unit"`
	UnitQuantity decimal.Dec `json:"unitQuantity" example:"1.5" doc:"What one sale unit holds in the type's unit (1 without packaging)"`
	// SaleUnit is the sale unit in words: "pièce de 1,5 kg", or the
	// type's unit ("kg").
	SaleUnit  string      `json:"saleUnit" example:"pièce de 1,5 kg"`
	Labels    []string    `json:"labels" enum:"ab,conversion,label-rouge,aop,igp,hve,nature-progres"`
	Certifier string      `json:"certifier" example:"FR-BIO-01" doc:"The organic certifier's code number (with AB or en conversion), else empty"`
	Months    []int       `json:"months" minimum:"1" maximum:"12" doc:"Months it is available, 1 to 12"`
	RefPrice  decimal.Dec `json:"refPrice" doc:"Reference price HT in EUR per unit of the type (0: none)"`
	Photo     *Photo      `json:"photo" doc:"Its photo, or null"`
	// DocumentName is how delivery notes and invoices name it.
	DocumentName string `json:"documentName" example:"Tomme de Savoie fermière (pièce de 1,5 kg) · AOP"`
}

// Input is what a producer sends for a product.
type Input struct {
	Type         string
	Name         string
	Packaging    string
	UnitQuantity float64
	Labels       []string
	Certifier    string
	Months       []int
	RefPrice     float64
}

// row is a product as stored.
type row struct {
	ID           string      `db:"id"`
	ProducerID   string      `db:"producer_id"`
	TypeID       string      `db:"product_id"`
	Name         string      `db:"name"`
	NameKey      string      `db:"name_key"`
	Packaging    string      `db:"packaging"`
	UnitQuantity decimal.Dec `db:"unit_quantity"`
	Certifier    string      `db:"certifier"`
	Months       string      `db:"months"`
	RefPrice     decimal.Dec `db:"ref_price"`
	Retired      bool        `db:"retired"`
	TypeName     string      `db:"type_name"`
	Family       string      `db:"family_id"`
	Unit         string      `db:"unit"`
}

const rowColumns = `s.id, s.producer_id, s.product_id, s.name, s.name_key, s.packaging, s.unit_quantity, s.certifier,
	s.months, s.ref_price, (s.retired_at IS NOT NULL) AS retired, p.name AS type_name, COALESCE(p.family_id, '') AS family_id,
	p.unit`

// SaleUnit writes a sale unit in words: "pièce de 1,5 kg", "carton de 6
// bouteilles"; the type's unit label ("kg", "pièce") without packaging.
func SaleUnit(packaging string, unitQuantity decimal.Dec, unit string) string {
	if packaging == "" {
		return catalog.UnitLabel(unit)
	}
	return packaging + " de " + quantityText(unitQuantity, unit)
}

// quantityText is catalog.QuantityText without the trailing zeros of its
// decimals: "1,5 kg", "6 bouteilles".
func quantityText(d decimal.Dec, unit string) string {
	s := catalog.QuantityText(d, unit)
	if d.IsWhole() {
		return s
	}
	q, rest, _ := strings.Cut(s, " ")
	return strings.TrimRight(q, "0") + " " + rest
}

// DocumentName is how a delivery note or an invoice names a producer's
// product: its name, its sale unit when it has one, and its labels as the
// law lets them be printed (DocumentText): "Tomme de Savoie fermière
// (pièce de 1,5 kg) · AOP".
func DocumentName(name, packaging string, unitQuantity decimal.Dec, unit string, labels []string, certifier string) string {
	s := name
	if packaging != "" {
		s += " (" + SaleUnit(packaging, unitQuantity, unit) + ")"
	}
	if l := DocumentText(labels, certifier); l != "" {
		s += " · " + l
	}
	return s
}

func (r row) view(labels []string, photo *Photo) Product {
	var months []int
	for i, c := range r.Months {
		if c == '1' {
			months = append(months, i+1)
		}
	}
	if months == nil {
		months = []int{}
	}
	if labels == nil {
		labels = []string{}
	}
	return Product{
		ID: r.ID, Producer: r.ProducerID, Type: r.TypeID, TypeName: r.TypeName, Family: r.Family, Unit: r.Unit,
		Name: r.Name, Packaging: r.Packaging, UnitQuantity: r.UnitQuantity,
		SaleUnit: SaleUnit(r.Packaging, r.UnitQuantity, r.Unit), Labels: labels, Certifier: r.Certifier,
		Months: months, RefPrice: r.RefPrice, Photo: photo,
		DocumentName: DocumentName(r.Name, r.Packaging, r.UnitQuantity, r.Unit, labels, r.Certifier),
	}
}

// List returns the producer's live products, by name: its own list ("Mes
// produits") and what shops see on its page.
func List(ctx context.Context, q store.Q, producerID string) ([]Product, error) {
	var rows []row
	if err := store.Select(ctx, q, &rows, `SELECT `+rowColumns+` FROM supplied_products s
		JOIN products p ON p.id = s.product_id
		WHERE s.producer_id = ? AND s.retired_at IS NULL ORDER BY s.name_key, s.id`, producerID); err != nil {
		return nil, fmt.Errorf("supplied: list %s: %w", producerID, err)
	}
	return views(ctx, q, rows)
}

// ByIDs returns the products with these ids, retired ones included (a
// proposal still names them), keyed by id; unknown ids are left out.
func ByIDs(ctx context.Context, q store.Q, ids []string) (map[string]Product, error) {
	out := make(map[string]Product, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	query, args, err := store.In(q, `SELECT `+rowColumns+` FROM supplied_products s
		JOIN products p ON p.id = s.product_id WHERE s.id IN (?)`, ids)
	if err != nil {
		return nil, fmt.Errorf("supplied: by ids: %w", err)
	}
	var rows []row
	if err := store.Select(ctx, q, &rows, query, args...); err != nil {
		return nil, fmt.Errorf("supplied: by ids: %w", err)
	}
	ps, err := views(ctx, q, rows)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}

// Get returns one of the producer's products, live or retired; another
// producer's, or none, is core.ErrNotFound.
func Get(ctx context.Context, q store.Q, producerID, id string) (Product, error) {
	r, err := own(ctx, q, producerID, id, false)
	if err != nil {
		return Product{}, err
	}
	ps, err := views(ctx, q, []row{r})
	if err != nil {
		return Product{}, err
	}
	return ps[0], nil
}

// views completes rows with their labels and photos, in two queries.
func views(ctx context.Context, q store.Q, rows []row) ([]Product, error) {
	out := make([]Product, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	labels := map[string][]string{}
	photos := map[string]*Photo{}
	for _, chunk := range slices.Collect(slices.Chunk(ids, 500)) {
		var ls []struct {
			ID    string `db:"supplied_product_id"`
			Label string `db:"label"`
		}
		query, args, err := store.In(q, `SELECT supplied_product_id, label FROM supplied_product_labels
			WHERE supplied_product_id IN (?)`, chunk)
		if err != nil {
			return nil, fmt.Errorf("supplied: labels: %w", err)
		}
		if err := store.Select(ctx, q, &ls, query, args...); err != nil {
			return nil, fmt.Errorf("supplied: labels: %w", err)
		}
		for _, l := range ls {
			labels[l.ID] = append(labels[l.ID], l.Label)
		}
		var ps []struct {
			ID      string `db:"supplied_product_id"`
			ImageID string `db:"image_id"`
			Size    string `db:"size"`
		}
		query, args, err = store.In(q, `SELECT supplied_product_id, image_id, size FROM supplied_product_photos
			WHERE supplied_product_id IN (?)`, chunk)
		if err != nil {
			return nil, fmt.Errorf("supplied: photos: %w", err)
		}
		if err := store.Select(ctx, q, &ps, query, args...); err != nil {
			return nil, fmt.Errorf("supplied: photos: %w", err)
		}
		for _, p := range ps {
			ph := photos[p.ID]
			if ph == nil {
				ph = &Photo{}
				photos[p.ID] = ph
			}
			switch p.Size {
			case "small":
				ph.Small = PhotoPath + p.ImageID
			case "medium":
				ph.Medium = PhotoPath + p.ImageID
			default:
				ph.Large = PhotoPath + p.ImageID
			}
		}
	}
	for _, r := range rows {
		ls := labels[r.ID]
		slices.SortFunc(ls, func(a, b string) int { return labelRank(a) - labelRank(b) })
		out = append(out, r.view(ls, photos[r.ID]))
	}
	return out, nil
}

func labelRank(id string) int {
	return slices.IndexFunc(Labels, func(l Label) bool { return l.ID == id })
}

// own reads one of the producer's products, locked for a write when lock
// is set; another's, or none, is core.ErrNotFound.
func own(ctx context.Context, q store.Q, producerID, id string, lock bool) (row, error) {
	var r row
	query := `SELECT ` + rowColumns + ` FROM supplied_products s JOIN products p ON p.id = s.product_id
		WHERE s.id = ? AND s.producer_id = ?`
	if lock {
		query += store.ForUpdateOf(q, "s")
	}
	err := store.Get(ctx, q, &r, query, id, producerID)
	if store.IsNotFound(err) {
		return row{}, fmt.Errorf("supplied: %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return row{}, fmt.Errorf("supplied: get %s: %w", id, err)
	}
	return r, nil
}

// checked is an input as it is stored.
type checked struct {
	typ          catalog.Product
	name, key    string
	packaging    string
	unitQuantity decimal.Dec
	labels       []string
	certifier    string
	months       string
	refPrice     decimal.Dec
}

// check applies the rules of a product's fields (PRODUCT §5); every field
// in error is named.
func check(ctx context.Context, q store.Q, in Input) (checked, error) {
	var v core.ValidationError
	var c checked
	typ, err := catalog.ByID(ctx, q, strings.TrimSpace(in.Type))
	switch {
	case errors.Is(err, core.ErrNotFound):
		v.Add("productType", MsgType)
	case err != nil:
		return c, err
	case typ.Retired:
		v.Add("productType", MsgTypeRetired)
	}
	c.typ = typ
	c.name = strings.TrimSpace(printable.Line(in.Name))
	if c.name == "" || len([]rune(c.name)) > MaxName {
		v.Add("name", MsgName)
	}
	c.key = catalog.NameKey(c.name)
	if c.key == "" && c.name != "" {
		v.Add("name", MsgName)
	}
	c.packaging = strings.TrimSpace(printable.Line(in.Packaging))
	if len([]rune(c.packaging)) > MaxPackaging {
		v.Add("packaging", MsgPackaging)
	}
	uq, ok := decimal.FromFloat(in.UnitQuantity)
	switch {
	case !ok || uq <= 0 || uq > MaxUnitQuantity:
		v.Add("unitQuantity", MsgUnitQuantity)
	case c.packaging == "" && uq != decimal.Hundred:
		v.Add("unitQuantity", MsgUnitQuantityOne)
	case typ.ID != "" && !catalog.Fits(uq, typ.Unit):
		v.Add("unitQuantity", MsgUnitQuantityInt)
	}
	c.unitQuantity = uq
	for _, l := range in.Labels {
		if _, ok := LabelOf(l); !ok {
			v.Add("labels", MsgLabel)
			break
		}
		if !slices.Contains(c.labels, l) {
			c.labels = append(c.labels, l)
		}
	}
	organic := slices.Contains(c.labels, "ab") || slices.Contains(c.labels, "conversion")
	switch {
	case slices.Contains(c.labels, "ab") && slices.Contains(c.labels, "conversion"):
		v.Add("labels", MsgBioOrConversion)
	case slices.Contains(c.labels, "conversion") && slices.Contains(animalFamilies, typ.Family):
		v.Add("labels", MsgConversionPlant)
	}
	if organic {
		c.certifier = strings.ToUpper(strings.TrimSpace(in.Certifier))
		if !certifierCode.MatchString(c.certifier) {
			v.Add("certifier", MsgCertifier)
		}
	}
	months := []byte("000000000000")
	for _, m := range in.Months {
		if m < 1 || m > 12 {
			v.Add("months", MsgMonths)
			break
		}
		months[m-1] = '1'
	}
	if !slices.Contains(months, '1') && !slices.Contains(v.Fields, core.FieldError{Field: "months", Message: MsgMonths}) {
		v.Add("months", MsgMonths)
	}
	c.months = string(months)
	price, ok := decimal.FromFloat(in.RefPrice)
	if !ok || price < 0 || price > MaxRefPrice {
		v.Add("refPrice", MsgRefPrice)
	}
	c.refPrice = price
	return c, v.Err()
}

// Create lists a new product of the producer.
func Create(ctx context.Context, q store.Q, producerID string, in Input, now time.Time) (Product, error) {
	c, err := check(ctx, q, in)
	if err != nil {
		return Product{}, err
	}
	// Serialize the producer's writes (PostgreSQL): the count and the name
	// are decided under its row's lock.
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM users WHERE id = ?`+store.ForUpdate(q), producerID); err != nil {
		return Product{}, fmt.Errorf("supplied: lock producer: %w", err)
	}
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM supplied_products WHERE producer_id = ? AND retired_at IS NULL`,
		producerID); err != nil {
		return Product{}, fmt.Errorf("supplied: count: %w", err)
	}
	if n >= MaxProducts {
		return Product{}, core.Refuse(core.ErrConflict, MsgTooMany)
	}
	if err := nameFree(ctx, q, producerID, "", c.key); err != nil {
		return Product{}, err
	}
	id := core.NewID()
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `INSERT INTO supplied_products (id, producer_id, product_id, name, name_key, packaging,
		unit_quantity, certifier, months, ref_price, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, producerID, c.typ.ID, c.name, c.key, c.packaging, c.unitQuantity, c.certifier, c.months, c.refPrice, ms, ms); err != nil {
		return Product{}, fmt.Errorf("supplied: insert: %w", err)
	}
	if err := writeLabels(ctx, q, id, c.labels); err != nil {
		return Product{}, err
	}
	return Get(ctx, q, producerID, id)
}

// Update changes one of the producer's live products. Its type may change
// only to a type of the same unit, so that what proposals named stays
// counted in the same unit.
func Update(ctx context.Context, q store.Q, producerID, id string, in Input, now time.Time) (Product, error) {
	r, err := own(ctx, q, producerID, id, true)
	if err != nil {
		return Product{}, err
	}
	if r.Retired {
		return Product{}, fmt.Errorf("supplied: %s retired: %w", id, core.ErrNotFound)
	}
	c, err := check(ctx, q, in)
	if err != nil {
		return Product{}, err
	}
	if c.typ.Unit != r.Unit {
		return Product{}, core.Invalid("productType", MsgTypeUnit)
	}
	if err := nameFree(ctx, q, producerID, id, c.key); err != nil {
		return Product{}, err
	}
	if _, err := store.Exec(ctx, q, `UPDATE supplied_products SET product_id = ?, name = ?, name_key = ?, packaging = ?,
		unit_quantity = ?, certifier = ?, months = ?, ref_price = ?, updated_at = ? WHERE id = ?`,
		c.typ.ID, c.name, c.key, c.packaging, c.unitQuantity, c.certifier, c.months, c.refPrice, now.UnixMilli(), id); err != nil {
		return Product{}, fmt.Errorf("supplied: update: %w", err)
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM supplied_product_labels WHERE supplied_product_id = ?`, id); err != nil {
		return Product{}, fmt.Errorf("supplied: labels: %w", err)
	}
	if err := writeLabels(ctx, q, id, c.labels); err != nil {
		return Product{}, err
	}
	return Get(ctx, q, producerID, id)
}

// MsgTypeUnit refuses a product's new type in another unit.
const MsgTypeUnit = "Le nouveau type doit se compter dans la même unité que l'ancien : créez plutôt un autre produit."

func nameFree(ctx context.Context, q store.Q, producerID, id, key string) error {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM supplied_products
		WHERE producer_id = ? AND name_key = ? AND id <> ? AND retired_at IS NULL`, producerID, key, id); err != nil {
		return fmt.Errorf("supplied: name: %w", err)
	}
	if n > 0 {
		return core.Invalid("name", MsgNameTaken)
	}
	return nil
}

func writeLabels(ctx context.Context, q store.Q, id string, labels []string) error {
	for _, l := range labels {
		if _, err := store.Exec(ctx, q, `INSERT INTO supplied_product_labels (supplied_product_id, label) VALUES (?, ?)`,
			id, l); err != nil {
			return fmt.Errorf("supplied: label: %w", err)
		}
	}
	return nil
}

// Retire takes one of the producer's products off sale: it leaves its
// list and its page, proposals that named it keep its name. Its photo
// stays, for them.
func Retire(ctx context.Context, q store.Q, producerID, id string, now time.Time) error {
	r, err := own(ctx, q, producerID, id, true)
	if err != nil {
		return err
	}
	if r.Retired {
		return fmt.Errorf("supplied: %s retired: %w", id, core.ErrNotFound)
	}
	if _, err := store.Exec(ctx, q, `UPDATE supplied_products SET retired_at = ?, updated_at = ? WHERE id = ?`,
		now.UnixMilli(), now.UnixMilli(), id); err != nil {
		return fmt.Errorf("supplied: retire: %w", err)
	}
	return nil
}

// Photos are a photo made in its three sizes, by MakePhoto.
type Photos struct {
	Small, Medium, Large images.Image
}

// MakePhoto checks data as an image and makes it into the three sizes (a
// core.Invalid on field for anything that is not an image within
// core/images' bounds). The sender's file is decoded once; the smaller
// sizes are made from the large one. It runs outside any transaction.
func MakePhoto(ctx context.Context, field string, data []byte) (Photos, error) {
	large, err := images.Process(ctx, field, data, Large)
	if err != nil {
		return Photos{}, err
	}
	medium, err := images.Process(ctx, field, large.Data, Medium)
	if err != nil {
		return Photos{}, err
	}
	small, err := images.Process(ctx, field, large.Data, Small)
	if err != nil {
		return Photos{}, err
	}
	return Photos{Small: small, Medium: medium, Large: large}, nil
}

// SetPhoto gives one of the producer's live products its photo, replacing
// the one it had (its images are deleted: an image's URL never shows
// another picture).
func SetPhoto(ctx context.Context, q store.Q, producerID, id string, ph Photos, now time.Time) (Product, error) {
	if err := dropPhoto(ctx, q, producerID, id); err != nil {
		return Product{}, err
	}
	for _, s := range []struct {
		size string
		img  images.Image
	}{{"small", ph.Small}, {"medium", ph.Medium}, {"large", ph.Large}} {
		img, err := images.Insert(ctx, q, producerID, s.img, now)
		if err != nil {
			return Product{}, err
		}
		if _, err := store.Exec(ctx, q, `INSERT INTO supplied_product_photos (image_id, supplied_product_id, size)
			VALUES (?, ?, ?)`, img.ID, id, s.size); err != nil {
			return Product{}, fmt.Errorf("supplied: photo: %w", err)
		}
	}
	if _, err := store.Exec(ctx, q, `UPDATE supplied_products SET updated_at = ? WHERE id = ?`, now.UnixMilli(), id); err != nil {
		return Product{}, fmt.Errorf("supplied: photo: %w", err)
	}
	return Get(ctx, q, producerID, id)
}

// DeletePhoto removes the photo of one of the producer's live products.
func DeletePhoto(ctx context.Context, q store.Q, producerID, id string, now time.Time) (Product, error) {
	if err := dropPhoto(ctx, q, producerID, id); err != nil {
		return Product{}, err
	}
	if _, err := store.Exec(ctx, q, `UPDATE supplied_products SET updated_at = ? WHERE id = ?`, now.UnixMilli(), id); err != nil {
		return Product{}, fmt.Errorf("supplied: photo: %w", err)
	}
	return Get(ctx, q, producerID, id)
}

func dropPhoto(ctx context.Context, q store.Q, producerID, id string) error {
	r, err := own(ctx, q, producerID, id, true)
	if err != nil {
		return err
	}
	if r.Retired {
		return fmt.Errorf("supplied: %s retired: %w", id, core.ErrNotFound)
	}
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT image_id FROM supplied_product_photos WHERE supplied_product_id = ?`, id); err != nil {
		return fmt.Errorf("supplied: photo: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM supplied_product_photos WHERE supplied_product_id = ?`, id); err != nil {
		return fmt.Errorf("supplied: photo: %w", err)
	}
	if _, err := store.ExecIn(ctx, q, `DELETE FROM images WHERE id IN (?)`, ids); err != nil {
		return fmt.Errorf("supplied: photo: %w", err)
	}
	return nil
}

// PhotoImage returns an image of a product's photo, for anyone signed in;
// an image that is no product's photo (a reception's) is core.ErrNotFound.
func PhotoImage(ctx context.Context, q store.Q, imageID string) (images.Image, error) {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM supplied_product_photos WHERE image_id = ?`, imageID); err != nil {
		return images.Image{}, fmt.Errorf("supplied: photo %s: %w", imageID, err)
	}
	if n == 0 {
		return images.Image{}, fmt.Errorf("supplied: photo %s: %w", imageID, core.ErrNotFound)
	}
	return images.Get(ctx, q, imageID)
}

// LiveType is the catalogue type of one of the producer's live products:
// what a proposal naming it checks. Another's, a retired one, or none is
// core.ErrNotFound.
func LiveType(ctx context.Context, q store.Q, producerID, id string) (string, error) {
	var typ string
	err := store.Get(ctx, q, &typ, `SELECT product_id FROM supplied_products
		WHERE id = ? AND producer_id = ? AND retired_at IS NULL`, id, producerID)
	if store.IsNotFound(err) {
		return "", fmt.Errorf("supplied: %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("supplied: type of %s: %w", id, err)
	}
	return typ, nil
}

// DocumentNames are the names the delivery notes and invoice of an order
// give its lines, by need id: DocumentName of the product the commitment
// on the need names, for the needs whose commitment names one.
func DocumentNames(ctx context.Context, q store.Q, orderID string) (map[string]string, error) {
	var rows []struct {
		NeedID  string `db:"need_id"`
		Product string `db:"supplied_product_id"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT DISTINCT pr.need_id, pr.supplied_product_id
		FROM orders o JOIN needs n ON n.distributor_id = o.distributor_id AND n.month = o.month
		JOIN proposals pr ON pr.need_id = n.id AND pr.producer_id = o.producer_id
		WHERE o.id = ? AND pr.status = 'accepted' AND pr.supplied_product_id IS NOT NULL`, orderID); err != nil {
		return nil, fmt.Errorf("supplied: names of %s: %w", orderID, err)
	}
	out := make(map[string]string, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.Product
	}
	ps, err := ByIDs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if p, ok := ps[r.Product]; ok {
			out[r.NeedID] = p.DocumentName
		}
	}
	return out, nil
}
