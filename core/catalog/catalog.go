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

// Units.
const (
	Kg    = "kg"
	Piece = "un"
)

// Product is a catalogue entry.
type Product struct {
	ID   string `db:"id" json:"_id" example:"tomate"`
	Name string `db:"name" json:"name" example:"Tomate"`
	Unit string `db:"unit" json:"unit" enum:"kg,un"`
	// RefPrice is the reference producer price HT per unit, in cents.
	RefPrice decimal.Dec `db:"ref_price" json:"refPrice" doc:"Reference producer price HT in EUR per unit"`
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
// accents, punctuation and repeated spaces ("Chou-fleur" = "chou fleur").
func NameKey(name string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(strings.ToLower(name)) {
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

//go:embed catalogue.csv
var catalogueCSV []byte

// Catalogue parses the embedded catalogue.
func Catalogue() ([]Product, error) {
	return parse(bytes.NewReader(catalogueCSV))
}

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
		p := Product{ID: rec[0], Name: rec[1], Unit: rec[2], NameKey: NameKey(rec[1])}
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

const productColumns = `id, name, name_key, unit, share, ref_price, coefs`

// All returns every product, by name.
func All(ctx context.Context, q store.Q) ([]Product, error) {
	var ps []Product
	var p Product
	err := store.Each(ctx, q, `SELECT `+productColumns+` FROM products ORDER BY name_key`, nil,
		[]any{&p.ID, &p.Name, &p.NameKey, &p.Unit, (*store.Int64)(&p.Share), &p.RefPrice, &p.CoefsRaw}, func() { ps = append(ps, p) })
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

// ByID returns a product, or core.ErrNotFound.
func ByID(ctx context.Context, q store.Q, id string) (Product, error) {
	var p Product
	err := store.Get(ctx, q, &p, `SELECT `+productColumns+` FROM products WHERE id = ?`, id)
	if store.IsNotFound(err) {
		return Product{}, fmt.Errorf("catalog: product %q: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Product{}, fmt.Errorf("catalog: product %q: %w", id, err)
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

// NewIndex indexes products.
func NewIndex(ps []Product) *Index {
	ix := &Index{byID: make(map[string]Product, len(ps)), byName: make(map[string]Product, len(ps))}
	for _, p := range ps {
		ix.byID[p.ID] = p
		ix.byName[p.NameKey] = p
	}
	ix.indexLoose(ps)
	return ix
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
