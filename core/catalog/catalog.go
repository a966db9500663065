// Package catalog holds the products Primeur knows: name, unit (kg or
// pieces), and the figures the standard import needs — each product's share
// of a shop's fruit-and-vegetable turnover, its 12 seasonal coefficients and
// its reference producer price. The list lives in catalogue.csv
// (Catalogue) and reaches the database through migrations: 00003_catalogue.sql
// wrote its rows out; an edit of the CSV needs a new migration carrying it to
// existing databases (core/schema's TestCatalogueMigrated fails until then).
package catalog

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/printable"
	"primeur/core/store"
)

// Product is a catalogue entry, a product type (DFC: ProductType): what a
// shop plans needs of, per month, in its unit of need.
type Product struct {
	ID   string `db:"id" json:"_id" example:"tomate"`
	Name string `db:"name" json:"name" example:"Tomate"`
	Unit string `db:"unit" json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	// Family is the family the type belongs to (families.id).
	Family string `db:"family_id" json:"family" example:"legumes"`
	// VATRate is the type's VAT rate in hundredths of a percent (550 is
	// 5.5 %): the rate of its invoice lines under the normal regime.
	VATRate int64 `db:"vat_rate" json:"vatRate" example:"550" doc:"VAT rate in hundredths of a percent (550 = 5.5 %)"`
	// Retired is true for a type an administrator retired: its needs
	// stay, no new one is taken.
	Retired bool `db:"retired" json:"retired,omitempty"`
	// MergedInto is the type an administrator merged this one into ("" for
	// none): its name finds that type in imports (Index).
	MergedInto string `db:"merged_into" json:"-"`
	// DFCType is the Data Food Consortium product type it maps to (the
	// concept's fragment in productTypes.rdf, "tomato"), "" for none.
	DFCType string `db:"dfc_type" json:"-"`
	// RefPrice is the reference producer price HT per unit, in cents; 0
	// when none is known.
	RefPrice decimal.Dec `db:"ref_price" json:"refPrice" doc:"Reference producer price HT in EUR per unit (0: unknown)"`
	// Share is the product's share of fruit-and-vegetable turnover, in
	// hundredths of a percent (840 = 8.4 %).
	Share int64 `db:"share" json:"-"`
	// Coefs are the seasonal coefficients, January first, mean 1.
	Coefs [12]float64 `db:"-" json:"-"`

	NameKey  string `db:"name_key" json:"-"`
	CoefsRaw string `db:"coefs" json:"-"`
}

// ShareFraction returns the share as a fraction (0.084 for 8.4 %).
func (p Product) ShareFraction() float64 { return float64(p.Share) / 10000 }

// NameKey is the form under which product names match: lower case, without
// accents, punctuation and repeated spaces ("Chou-fleur" = "chou fleur"),
// the ligatures written out ("Œufs" = "oeufs").
func NameKey(name string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(ligatures.Replace(strings.ToLower(name))) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// ligatures are the letters NameKey writes out: NFD leaves them whole.
var ligatures = strings.NewReplacer("œ", "oe", "æ", "ae")

//go:embed catalogue.csv
var catalogueCSV []byte

//go:embed types.csv
var typesCSV []byte

// Catalogue parses the embedded catalogue: every type of types.csv, the
// standard import's share and seasonal coefficients of catalogue.csv for
// the 60 it lists.
func Catalogue() ([]Product, error) {
	figures, err := parse(bytes.NewReader(catalogueCSV))
	if err != nil {
		return nil, err
	}
	return parseTypes(bytes.NewReader(typesCSV), figures)
}

// Figures parses catalogue.csv alone: the 60 products the standard import
// knows a share of the fruit-and-vegetable turnover of.
func Figures() ([]Product, error) { return parse(bytes.NewReader(catalogueCSV)) }

func parse(r io.Reader) ([]Product, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = 18
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("catalog: header: %w", err)
	}
	if header[0] != "id" || header[17] != "source" {
		return nil, fmt.Errorf("catalog: unexpected header %v", header)
	}
	var out []Product
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		p := Product{ID: rec[0], Name: rec[1], Unit: rec[2], NameKey: NameKey(rec[1]), VATRate: 550}
		if p.Unit != Kg && p.Unit != Piece {
			return nil, fmt.Errorf("catalog: %s: unit %q", p.ID, p.Unit)
		}
		share, err := strconv.ParseFloat(rec[3], 64)
		if err != nil {
			return nil, fmt.Errorf("catalog: %s: share: %w", p.ID, err)
		}
		p.Share = int64(share*100 + 0.5)
		price, err := strconv.ParseFloat(rec[4], 64)
		if err != nil || price <= 0 {
			return nil, fmt.Errorf("catalog: %s: price %q", p.ID, rec[4])
		}
		p.RefPrice = decimal.Round(price)
		for m := 0; m < 12; m++ {
			if p.Coefs[m], err = strconv.ParseFloat(rec[5+m], 64); err != nil || p.Coefs[m] < 0 {
				return nil, fmt.Errorf("catalog: %s: coefficient %d %q", p.ID, m+1, rec[5+m])
			}
		}
		p.CoefsRaw = strings.Join(rec[5:17], ",")
		out = append(out, p)
	}
	return out, nil
}

// parseTypes reads types.csv, each type completed by its figures when it
// has some (same id, name and unit, or an error).
func parseTypes(r io.Reader, figures []Product) ([]Product, error) {
	byID := make(map[string]Product, len(figures))
	for _, p := range figures {
		byID[p.ID] = p
	}
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = 8
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("catalog: types header: %w", err)
	}
	if strings.Join(header, ",") != "id,name,family,unit,vat,price,season,dfc" {
		return nil, fmt.Errorf("catalog: unexpected types header %v", header)
	}
	var out []Product
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("catalog: types: %w", err)
		}
		p := Product{ID: rec[0], Name: rec[1], Family: rec[2], Unit: rec[3], NameKey: NameKey(rec[1]), DFCType: rec[7]}
		if _, ok := UnitOf(p.Unit); !ok {
			return nil, fmt.Errorf("catalog: %s: unit %q", p.ID, p.Unit)
		}
		rate, ok := ParseRate(rec[4])
		if !ok {
			return nil, fmt.Errorf("catalog: %s: VAT rate %q", p.ID, rec[4])
		}
		p.VATRate = rate
		if f, ok := byID[p.ID]; ok {
			if f.Name != p.Name || f.Unit != p.Unit || rec[5] != "" || rec[6] != "" {
				return nil, fmt.Errorf("catalog: %s: types.csv and catalogue.csv differ", p.ID)
			}
			p.Share, p.RefPrice, p.Coefs, p.CoefsRaw = f.Share, f.RefPrice, f.Coefs, f.CoefsRaw
			delete(byID, p.ID)
		} else {
			if rec[5] != "" {
				price, err := strconv.ParseFloat(rec[5], 64)
				if err != nil || price <= 0 {
					return nil, fmt.Errorf("catalog: %s: price %q", p.ID, rec[5])
				}
				p.RefPrice = decimal.Round(price)
			}
			if p.Coefs, ok = SeasonCoefs(rec[6]); !ok {
				return nil, fmt.Errorf("catalog: %s: season %q", p.ID, rec[6])
			}
			p.CoefsRaw = formatCoefs(p.Coefs)
		}
		out = append(out, p)
	}
	if len(byID) > 0 {
		return nil, fmt.Errorf("catalog: %d products of catalogue.csv not in types.csv", len(byID))
	}
	return out, nil
}

// ParseRate reads a VAT rate in percent ("5.5", "5,5", "20") as
// hundredths of a percent (550, 2000); ok is false for anything else than
// 0 to 100 with at most two decimals.
func ParseRate(s string) (int64, bool) {
	f, err := strconv.ParseFloat(strings.Replace(strings.TrimSpace(s), ",", ".", 1), 64)
	if err != nil || f < 0 || f > 100 {
		return 0, false
	}
	d, ok := decimal.FromFloat(f)
	return int64(d), ok
}

// SeasonCoefs turns a season, "5-9" (May to September; "11-2" wraps
// around the new year) or "" (all year), into seasonal coefficients of
// mean 1: equal in its months, 0 out of them.
func SeasonCoefs(season string) ([12]float64, bool) {
	var c [12]float64
	if season == "" {
		for m := range c {
			c[m] = 1
		}
		return c, true
	}
	from, to, ok := strings.Cut(season, "-")
	a, err1 := strconv.Atoi(from)
	b, err2 := strconv.Atoi(to)
	if !ok || err1 != nil || err2 != nil || a < 1 || a > 12 || b < 1 || b > 12 {
		return c, false
	}
	n := (b-a+12)%12 + 1
	for i, m := 0, a-1; i < n; i, m = i+1, (m+1)%12 {
		c[m] = float64(12) / float64(n)
	}
	return c, true
}

// formatCoefs writes coefficients as products.coefs stores them.
func formatCoefs(c [12]float64) string {
	parts := make([]string, 12)
	for i, f := range c {
		parts[i] = strconv.FormatFloat(f, 'g', 4, 64)
	}
	return strings.Join(parts, ",")
}

// InSeason reports whether the type is sold in month m (1 to 12): its
// seasonal coefficient is above zero.
func (p Product) InSeason(m int) bool { return m >= 1 && m <= 12 && p.Coefs[m-1] > 0 }

const productColumns = `id, name, name_key, unit, share, ref_price, coefs, COALESCE(family_id, '') AS family_id, vat_rate,
	dfc_type, (retired_at IS NOT NULL) AS retired, COALESCE(merged_into, '') AS merged_into`

func (p *Product) fields() []any {
	return []any{&p.ID, &p.Name, &p.NameKey, &p.Unit, (*store.Int64)(&p.Share), &p.RefPrice, &p.CoefsRaw, &p.Family,
		(*store.Int64)(&p.VATRate), &p.DFCType, &p.Retired, &p.MergedInto}
}

// All returns every product, by name, the retired included (Retired).
func All(ctx context.Context, q store.Q) ([]Product, error) {
	var ps []Product
	var p Product
	err := store.Each(ctx, q, `SELECT `+productColumns+` FROM products ORDER BY name_key`, nil, p.fields(),
		func() { ps = append(ps, p) })
	if err != nil {
		return nil, fmt.Errorf("catalog: list: %w", err)
	}
	for i := range ps {
		if err := ps[i].decodeCoefs(); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// InUse are the products not retired: those the lists shops write their
// files from offer.
func InUse(ps []Product) []Product {
	out := make([]Product, 0, len(ps))
	for _, p := range ps {
		if !p.Retired {
			out = append(out, p)
		}
	}
	return out
}

// ByID returns a product, or core.ErrNotFound.
func ByID(ctx context.Context, q store.Q, id string) (Product, error) {
	var p Product
	err := store.Each(ctx, q, `SELECT `+productColumns+` FROM products WHERE id = ?`, []any{id}, p.fields(), func() {})
	if err != nil {
		return Product{}, fmt.Errorf("catalog: product %q: %w", id, err)
	}
	if p.ID == "" {
		return Product{}, fmt.Errorf("catalog: product %q: %w", id, core.ErrNotFound)
	}
	return p, p.decodeCoefs()
}

func (p *Product) decodeCoefs() error {
	parts := strings.Split(p.CoefsRaw, ",")
	if len(parts) != 12 {
		return fmt.Errorf("catalog: %s: %d coefficients", p.ID, len(parts))
	}
	for i, s := range parts {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("catalog: %s: coefficient %q", p.ID, s)
		}
		p.Coefs[i] = f
	}
	return nil
}

// Index finds products by id or by name (any case, accents, punctuation).
type Index struct {
	byID   map[string]Product
	byName map[string]Product
	// byLoose and loose serve Match and Closest (match.go).
	byLoose map[string]Product
	loose   []looseProduct
}

// NewIndex indexes products. A merged type's name finds the type it was
// merged into (followed through merges of merges), so that an import
// written with the old name fills the kept type's needs; its id still
// finds it as it is (retired).
func NewIndex(ps []Product) *Index {
	ix := &Index{byID: make(map[string]Product, len(ps)), byName: make(map[string]Product, len(ps))}
	for _, p := range ps {
		ix.byID[p.ID] = p
	}
	names := make([]named, 0, len(ps))
	for _, p := range ps {
		target := p
		for hops := 0; target.MergedInto != "" && hops < len(ps); hops++ {
			kept, ok := ix.byID[target.MergedInto]
			if !ok {
				break
			}
			target = kept
		}
		ix.byName[p.NameKey] = target
		names = append(names, named{name: p.Name, product: target})
	}
	// A kept type's own name wins over a merged one's sharing its key.
	for _, p := range ps {
		if p.MergedInto == "" {
			ix.byName[p.NameKey] = p
		}
	}
	ix.indexLoose(names)
	return ix
}

// named is a name a product is found by: its own, or a merged type's.
type named struct {
	name    string
	product Product
}

// ByID returns the product with that id.
func (ix *Index) ByID(id string) (Product, bool) {
	p, ok := ix.byID[id]
	return p, ok
}

// ByName returns the product whose name matches.
func (ix *Index) ByName(name string) (Product, bool) {
	p, ok := ix.byName[NameKey(name)]
	return p, ok
}

// CSV writes the public product list (name and unit) as CSV, the list shops
// use to write their import files, the way French spreadsheet programs
// read a CSV file by a double click: UTF-8 with a byte order mark (or the
// accents come out wrong), ";" between the columns (a "," file opens in
// one column, "," being the decimal separator), CRLF line ends. Each cell is
// one printable line (core/printable): no control character, one record
// per product.
func CSV(w io.Writer, ps []Product) error {
	if _, err := io.WriteString(w, "\uFEFF"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma, cw.UseCRLF = ';', true
	if err := cw.Write([]string{"produit", "unite"}); err != nil {
		return err
	}
	for _, p := range ps {
		if err := cw.Write([]string{printable.Line(p.Name), printable.Line(p.Unit)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
