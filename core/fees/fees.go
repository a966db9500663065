// Package fees holds a producer's minimum order and delivery fees (PRODUCT
// §16 "Minimum order and delivery fees"): its terms for every shop, its
// exceptions for one shop, the terms that apply to a (producer, shop) pair
// at their distance, and the two rules drawn from them — the minimum amount
// of goods per delivery (Applied.Check, the one check trade runs before a
// proposal or an acceptance would plan a delivery under it) and the fee of
// a delivery (Applied.FeeFor, what billing invoices).
//
// Amounts are cents HT (decimal.Dec). The distance is the round's metric
// (core/dayplan RoadKm): the great-circle distance between the farm and the
// shop times 1.3, each placed by its profile's coordinates, else by the
// town of its address's postal code line.
package fees

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/address"
	"primeur/core/decimal"
	"primeur/core/places"
	"primeur/core/store"
)

// French texts (PRODUCT §16).
const (
	// MsgMinimum is the refusal of a delivery under the minimum: the
	// minimum, then what is missing.
	MsgMinimum   = "Commande minimum de %s € par livraison : il manque %s €."
	MsgAmount    = "Veuillez saisir un montant correct (au plus 10 000 €, deux décimales)"
	MsgBandKm    = "Veuillez saisir des distances entières croissantes (de 1 à 1 000 km)"
	MsgTooMany   = "Au plus 10 tranches de distance"
	MsgNotAShop  = "Ce commerce n'existe pas"
	MsgException = "Indiquez un minimum ou des frais pour ce commerce"
)

// MaxAmount bounds every amount of the terms: 10 000 € HT.
const MaxAmount = decimal.Dec(10_000_00)

// MaxBands bounds the distance bands; MaxKm their distances.
const (
	MaxBands = 10
	MaxKm    = 1000
)

// Band is the fee of the deliveries up to UpToKm road kilometres (past
// the previous band's).
type Band struct {
	UpToKm int         `json:"upToKm"`
	Fee    decimal.Dec `json:"fee"`
}

// Terms are a producer's terms for every shop.
type Terms struct {
	// Minimum is the least amount of goods HT of a delivery; 0: none.
	Minimum decimal.Dec `json:"minimum"`
	// Fee is the flat fee of a delivery: the fee without bands, and past
	// the last band or for a shop that cannot be placed.
	Fee decimal.Dec `json:"fee"`
	// Bands are the fees by distance, by increasing UpToKm.
	Bands []Band `json:"bands"`
	// FreeAbove is the amount of goods HT from which a delivery is free;
	// 0: never.
	FreeAbove decimal.Dec `json:"freeAbove"`
}

// Exception replaces, for one shop, the producer's minimum or its fee
// (0: delivered free), each nil to keep the producer's.
type Exception struct {
	ShopID   string       `json:"shopId"`
	ShopName string       `json:"shopName"`
	Minimum  *decimal.Dec `json:"minimum,omitempty"`
	Fee      *decimal.Dec `json:"fee,omitempty"`
}

// Settings are what the producer's profile shows and edits.
type Settings struct {
	Terms      Terms       `json:"terms"`
	Exceptions []Exception `json:"exceptions"`
}

// Applied are the terms of one (producer, shop) pair: what the shop sees
// before it accepts, and what the rules use.
type Applied struct {
	// Minimum is the minimum of the pair (the exception's, else the
	// producer's); 0: none.
	Minimum decimal.Dec `json:"minimum"`
	// Fee is the fee of a delivery under FreeAbove: the exception's, else
	// the band of the distance, else the flat fee.
	Fee decimal.Dec `json:"fee"`
	// FreeAbove: from this amount of goods HT, the delivery is free; 0:
	// never.
	FreeAbove decimal.Dec `json:"freeAbove"`
	// DistanceKm is the road distance counted, in km rounded to one
	// decimal; nil when the farm or the shop cannot be placed.
	DistanceKm *float64 `json:"distanceKm,omitempty"`
	// Exception says that the shop has its own minimum or fee.
	Exception bool `json:"exception"`
}

// FeeFor is the fee of a delivery of amount HT of goods: 0 for an empty
// delivery or from FreeAbove, else a.Fee.
func (a Applied) FeeFor(amount decimal.Dec) decimal.Dec {
	if amount <= 0 || (a.FreeAbove > 0 && amount >= a.FreeAbove) {
		return 0
	}
	return a.Fee
}

// Check is the minimum order rule: a delivery of amount HT of goods (more
// than 0; an empty delivery is no delivery) under the minimum is refused
// with MsgMinimum, saying what is missing.
func (a Applied) Check(amount decimal.Dec) error {
	if amount <= 0 || amount >= a.Minimum {
		return nil
	}
	return core.Refuse(core.ErrConflict, MinimumMessage(a.Minimum, a.Minimum-amount))
}

// MinimumMessage is MsgMinimum for a minimum and what is missing.
func MinimumMessage(minimum, missing decimal.Dec) string {
	return fmt.Sprintf(MsgMinimum, minimum.French(), missing.French())
}

// Get reads a producer's settings: its terms (zero when never set) and
// its exceptions, by shop name.
func Get(ctx context.Context, q store.Q, producerID string) (Settings, error) {
	t, err := terms(ctx, q, producerID)
	if err != nil {
		return Settings{}, err
	}
	s := Settings{Terms: t, Exceptions: []Exception{}}
	rows, err := q.QueryContext(ctx, q.Rebind(`SELECT e.shop_id, u.name, e.minimum, e.fee FROM delivery_terms_shops e
		JOIN users u ON u.id = e.shop_id WHERE e.producer_id = ? ORDER BY u.name, e.shop_id`), producerID)
	if err != nil {
		return Settings{}, fmt.Errorf("fees: exceptions of %s: %w", producerID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Exception
		var lo, fee sql.NullInt64
		if err := rows.Scan(&e.ShopID, &e.ShopName, &lo, &fee); err != nil {
			return Settings{}, fmt.Errorf("fees: exceptions of %s: %w", producerID, err)
		}
		e.Minimum, e.Fee = decPtr(lo), decPtr(fee)
		s.Exceptions = append(s.Exceptions, e)
	}
	if err := rows.Err(); err != nil {
		return Settings{}, fmt.Errorf("fees: exceptions of %s: %w", producerID, err)
	}
	return s, nil
}

func decPtr(n sql.NullInt64) *decimal.Dec {
	if !n.Valid {
		return nil
	}
	d := decimal.Dec(n.Int64)
	return &d
}

func nullOf(d *decimal.Dec) any {
	if d == nil {
		return nil
	}
	return int64(*d)
}

// terms reads a producer's terms; zero when never set.
func terms(ctx context.Context, q store.Q, producerID string) (Terms, error) {
	var (
		t     Terms
		bands string
	)
	err := q.QueryRowxContext(ctx, q.Rebind(`SELECT minimum, fee, bands, free_above FROM delivery_terms WHERE producer_id = ?`),
		producerID).Scan((*int64)(&t.Minimum), (*int64)(&t.Fee), &bands, (*int64)(&t.FreeAbove))
	if errors.Is(err, sql.ErrNoRows) {
		return Terms{Bands: []Band{}}, nil
	}
	if err != nil {
		return Terms{}, fmt.Errorf("fees: terms of %s: %w", producerID, err)
	}
	t.Bands = []Band{}
	if bands != "" {
		if err := json.Unmarshal([]byte(bands), &t.Bands); err != nil {
			return Terms{}, fmt.Errorf("fees: bands of %s: %w", producerID, err)
		}
	}
	return t, nil
}

// Input is the producer's terms as the form sends them, in euros.
type Input struct {
	Minimum   float64
	Fee       float64
	FreeAbove float64
	Bands     []BandInput
}

// BandInput is a band as the form sends it.
type BandInput struct {
	UpToKm float64
	Fee    float64
}

// amount checks an amount in euros: 0 to MaxAmount, two decimals.
func amount(v *core.ValidationError, field string, f float64) decimal.Dec {
	d, ok := decimal.FromFloat(f)
	if !ok || d < 0 || d > MaxAmount {
		v.Add(field, MsgAmount)
		return 0
	}
	return d
}

// Validate checks the producer's terms: amounts from 0 to 10 000 € with
// two decimals, at most MaxBands bands of whole, increasing distances from
// 1 to MaxKm km. Every invalid field is named.
func Validate(in Input) (Terms, error) {
	v := &core.ValidationError{}
	t := Terms{Bands: []Band{}}
	t.Minimum = amount(v, "minimum", in.Minimum)
	t.Fee = amount(v, "fee", in.Fee)
	t.FreeAbove = amount(v, "freeAbove", in.FreeAbove)
	if len(in.Bands) > MaxBands {
		v.Add("bands", MsgTooMany)
	} else {
		prev := 0
		for i, b := range in.Bands {
			km := int(b.UpToKm)
			if b.UpToKm != float64(km) || km <= prev || km > MaxKm {
				v.Add(fmt.Sprintf("bands[%d].upToKm", i), MsgBandKm)
			} else {
				prev = km
			}
			t.Bands = append(t.Bands, Band{UpToKm: km, Fee: amount(v, fmt.Sprintf("bands[%d].fee", i), b.Fee)})
		}
	}
	if err := v.Err(); err != nil {
		return Terms{}, err
	}
	return t, nil
}

// Set validates and writes a producer's terms.
func Set(ctx context.Context, q store.Q, producerID string, in Input, now time.Time) (Terms, error) {
	t, err := Validate(in)
	if err != nil {
		return Terms{}, err
	}
	bands, err := json.Marshal(t.Bands)
	if err != nil {
		return Terms{}, fmt.Errorf("fees: bands: %w", err)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO delivery_terms (producer_id, minimum, fee, bands, free_above, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (producer_id) DO UPDATE SET minimum = excluded.minimum, fee = excluded.fee,
		bands = excluded.bands, free_above = excluded.free_above, updated_at = excluded.updated_at`,
		producerID, t.Minimum, t.Fee, string(bands), t.FreeAbove, now.UnixMilli()); err != nil {
		return Terms{}, fmt.Errorf("fees: set terms of %s: %w", producerID, err)
	}
	return t, nil
}

// SetException validates and writes the producer's exception for a shop:
// a minimum and a fee in euros, each nil to keep the producer's, not both.
// A shop that does not exist (or is not a shop) is refused as not found.
func SetException(ctx context.Context, q store.Q, producerID, shopID string, minimum, fee *float64, now time.Time) (Exception, error) {
	v := &core.ValidationError{}
	e := Exception{ShopID: shopID}
	if minimum != nil {
		d := amount(v, "minimum", *minimum)
		e.Minimum = &d
	}
	if fee != nil {
		d := amount(v, "fee", *fee)
		e.Fee = &d
	}
	if minimum == nil && fee == nil {
		v.Add("minimum", MsgException)
	}
	if err := v.Err(); err != nil {
		return Exception{}, err
	}
	err := store.Get(ctx, q, &e.ShopName, `SELECT name FROM users WHERE id = ? AND type = 'distributor'`, shopID)
	if store.IsNotFound(err) {
		return Exception{}, fmt.Errorf("fees: shop %s: %w", shopID, core.Refuse(core.ErrNotFound, MsgNotAShop))
	}
	if err != nil {
		return Exception{}, fmt.Errorf("fees: shop %s: %w", shopID, err)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO delivery_terms_shops (producer_id, shop_id, minimum, fee, updated_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (producer_id, shop_id) DO UPDATE SET minimum = excluded.minimum,
		fee = excluded.fee, updated_at = excluded.updated_at`,
		producerID, shopID, nullOf(e.Minimum), nullOf(e.Fee), now.UnixMilli()); err != nil {
		return Exception{}, fmt.Errorf("fees: set exception of %s for %s: %w", producerID, shopID, err)
	}
	return e, nil
}

// DeleteException removes the producer's exception for a shop; none is
// not found.
func DeleteException(ctx context.Context, q store.Q, producerID, shopID string) error {
	n, err := store.Exec(ctx, q, `DELETE FROM delivery_terms_shops WHERE producer_id = ? AND shop_id = ?`, producerID, shopID)
	if err != nil {
		return fmt.Errorf("fees: delete exception of %s for %s: %w", producerID, shopID, err)
	}
	if n == 0 {
		return fmt.Errorf("fees: exception of %s for %s: %w", producerID, shopID, core.ErrNotFound)
	}
	return nil
}

// party is what For reads of an account to place it.
type party struct {
	LatE6 *int64 `db:"lat_e6"`
	LonE6 *int64 `db:"lon_e6"`
	Line1 string `db:"address_line1"`
	Line2 string `db:"address_line2"`
	Line3 string `db:"address_line3"`
}

// For reads the terms of a (producer, shop) pair: the producer's, the
// shop's exception over them, the fee of the band of their distance.
func For(ctx context.Context, q store.Q, producerID, shopID string) (Applied, error) {
	return applied(ctx, q, producerID, shopID, true)
}

// MinimumOf reads the minimum of a (producer, shop) pair, as For does but
// without placing them: the fee of the Applied it returns is not the band's.
func MinimumOf(ctx context.Context, q store.Q, producerID, shopID string) (Applied, error) {
	return applied(ctx, q, producerID, shopID, false)
}

func applied(ctx context.Context, q store.Q, producerID, shopID string, placed bool) (Applied, error) {
	// One statement, the producer's terms and the shop's exception side by
	// side (each NULL when missing): a proposal's one read of them
	// (daemon TestRoundTripStatements).
	var (
		minimum, fee, freeAbove, shopMinimum, shopFee sql.NullInt64
		bands, exception                              sql.NullString
	)
	if err := q.QueryRowxContext(ctx, q.Rebind(`SELECT t.minimum, t.fee, t.bands, t.free_above, e.shop_id, e.minimum, e.fee
		FROM (SELECT 1 AS one) AS one LEFT JOIN delivery_terms t ON t.producer_id = ?
		LEFT JOIN delivery_terms_shops e ON e.producer_id = ? AND e.shop_id = ?`), producerID, producerID, shopID).Scan(
		&minimum, &fee, &bands, &freeAbove, &exception, &shopMinimum, &shopFee); err != nil {
		return Applied{}, fmt.Errorf("fees: terms of %s for %s: %w", producerID, shopID, err)
	}
	t := Terms{Minimum: decimal.Dec(minimum.Int64), Fee: decimal.Dec(fee.Int64), FreeAbove: decimal.Dec(freeAbove.Int64)}
	if bands.String != "" {
		if err := json.Unmarshal([]byte(bands.String), &t.Bands); err != nil {
			return Applied{}, fmt.Errorf("fees: bands of %s: %w", producerID, err)
		}
	}
	a := Applied{Minimum: t.Minimum, Fee: t.Fee, FreeAbove: t.FreeAbove, Exception: exception.Valid}
	if shopMinimum.Valid {
		a.Minimum = decimal.Dec(shopMinimum.Int64)
	}
	if shopFee.Valid {
		a.Fee = decimal.Dec(shopFee.Int64)
	} else if placed && len(t.Bands) > 0 {
		km, err := distance(ctx, q, producerID, shopID)
		if err != nil {
			return Applied{}, err
		}
		if km != nil {
			a.DistanceKm = km
			a.Fee = t.bandFee(*km)
		}
	}
	return a, nil
}

// bandFee is the fee of the band of km: the first band reaching it, else
// (past the last band) the flat fee.
func (t Terms) bandFee(km float64) decimal.Dec {
	for _, b := range t.Bands {
		if km <= float64(b.UpToKm) {
			return b.Fee
		}
	}
	return t.Fee
}

// distance is the road distance between a producer and a shop, rounded to
// one decimal; nil when either cannot be placed.
func distance(ctx context.Context, q store.Q, producerID, shopID string) (*float64, error) {
	var farm, shop party
	const query = `SELECT lat_e6, lon_e6, address_line1, address_line2, address_line3 FROM users WHERE id = ?`
	if err := store.Get(ctx, q, &farm, query, producerID); err != nil {
		return nil, fmt.Errorf("fees: place of %s: %w", producerID, err)
	}
	if err := store.Get(ctx, q, &shop, query, shopID); err != nil {
		return nil, fmt.Errorf("fees: place of %s: %w", shopID, err)
	}
	a, err := farm.place()
	if err != nil || a == nil {
		return nil, err
	}
	b, err := shop.place()
	if err != nil || b == nil {
		return nil, err
	}
	km := math.Round(RoadKm(*a, *b)*10) / 10
	return &km, nil
}

// Point is a position in WGS 84 degrees.
type Point struct{ Lat, Lon float64 }

// place is the account's profile position, else its address's town's.
func (p party) place() (*Point, error) {
	if p.LatE6 != nil && p.LonE6 != nil {
		return &Point{float64(*p.LatE6) / 1e6, float64(*p.LonE6) / 1e6}, nil
	}
	lines := []string{}
	for _, l := range []string{p.Line1, p.Line2, p.Line3} {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	_, code, city := address.City(lines)
	if code == "" {
		return nil, nil
	}
	ref, err := places.Default()
	if err != nil {
		return nil, fmt.Errorf("fees: places: %w", err)
	}
	if ms := ref.Search(code+" "+city, 1); len(ms) > 0 {
		return &Point{ms[0].Place.Lat, ms[0].Place.Lon}, nil
	}
	return nil, nil
}

// LineAmount is quantity × unit price in cents rounded half away from
// zero, as billing.Amount invoices it.
func LineAmount(quantity, price decimal.Dec) decimal.Dec {
	return decimal.MulDiv(price, int64(quantity), 100)
}

// RoadFactor and earthRadiusKm: the round's metric (core/dayplan, whose
// RoadKm TestDistanceIsTheRounds compares with this one).
const (
	RoadFactor    = 1.3
	earthRadiusKm = 6371.0088
)

// RoadKm is the great-circle (haversine) distance between a and b times
// RoadFactor.
func RoadKm(a, b Point) float64 {
	const rad = math.Pi / 180
	dLat := (b.Lat - a.Lat) * rad
	dLon := (b.Lon - a.Lon) * rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h))) * RoadFactor
}

// Part is the share of a fee taxed at one VAT rate (hundredths of a
// percent: 550 is 5.5 %).
type Part struct {
	Rate   int64
	Amount decimal.Dec
}

// Split shares a delivery's fee between the VAT rates of the goods it
// delivers, in proportion of their amounts HT (goods: the amount HT of
// the delivery's goods at each rate; PRODUCT §16 "Minimum order and
// delivery fees", the fee's VAT): each part rounded to the cent half away
// from zero, the highest rate taking what rounding left, so that the parts
// add up to the fee. The parts come by increasing rate, those of no
// amount left out; goods of one rate give the whole fee at that rate.
// Without goods (a delivery of nothing is free), none.
func Split(fee decimal.Dec, goods []Part) []Part {
	byRate := map[int64]decimal.Dec{}
	var total decimal.Dec
	for _, g := range goods {
		if g.Amount > 0 {
			byRate[g.Rate] += g.Amount
			total += g.Amount
		}
	}
	if fee <= 0 || total <= 0 {
		return nil
	}
	rates := make([]int64, 0, len(byRate))
	for r := range byRate {
		rates = append(rates, r)
	}
	slices.Sort(rates)
	out := make([]Part, 0, len(rates))
	left := fee
	for i, r := range rates {
		share := left
		if i < len(rates)-1 {
			share = decimal.MulDiv(fee, int64(byRate[r]), int64(total))
			left -= share
		}
		if share != 0 {
			out = append(out, Part{Rate: r, Amount: share})
		}
	}
	return out
}
