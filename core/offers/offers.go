// Package offers holds what a producer offers before any shop asked
// (issue 39, PRODUCT §3 "Offers"): availability or a surplus of one of its
// own products for a month ("200 kg de pommes Reinette en février"), at a
// unit price. Shops see the offers near their needs and on the producer's
// page, and take one in one step (Take): the need is created or raised,
// the producer's proposal is made from the offer and the shop accepts it,
// through core/planning's and core/trade's own operations in the caller's
// transaction, and the offer's remaining quantity goes down. Demand-first
// stays the rule: nothing is delivered nor billed but a commitment on a
// shop's need.
//
// Named after the Data Food Consortium's Offer: an offer of a
// SuppliedProduct (core/supplied) at a price, here open to every shop.
package offers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/supplied"
	"primeur/core/trade"
)

// Bounds.
const (
	// MaxLive bounds a producer's live offers.
	MaxLive = 200
	// MaxMonthsAhead bounds how far ahead an offer's month may be.
	MaxMonthsAhead = 24
	// MaxListed bounds the offers a shop's list answers.
	MaxListed = 200
)

// French refusals (PRODUCT §3 "Offers").
const (
	MsgProduct      = "Choisissez l'un de vos produits en vente."
	MsgMonth        = "Choisissez un mois à venir : ce mois-ci ou l'un des 24 suivants."
	MsgTooMany      = "Vous avez déjà 200 offres en cours : retirez-en une avant d'en publier une autre."
	MsgGone         = "Cette offre n'est plus disponible."
	MsgRemaining    = "Il ne reste que %s sur cette offre."
	MsgNoDays       = "Ce producteur n'a pas encore choisi ses jours de livraison : son offre ne peut pas être prise pour l'instant."
	MsgAlreadyTrade = "Ce producteur vous a déjà fait une proposition sur ce besoin : répondez-y dans le planificateur."
	MsgOwnOffer     = "Vous ne pouvez prendre que les offres des producteurs."
)

// Offer is an offer as the API shows it.
type Offer struct {
	ID           string `json:"_id" example:"0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"`
	Producer     string `json:"producer" doc:"The producer's id"`
	ProducerName string `json:"producerName" example:"Vergers du Léman"`
	// Product is the producer's product offered (DFC: the offer's
	// SuppliedProduct).
	Product supplied.Product `json:"suppliedProduct"`
	Month   string           `json:"month" example:"2027-02-01" doc:"The month offered"`
	// Quantity and Remaining count in the product type's unit.
	Quantity  decimal.Dec `json:"quantity" example:"200" doc:"The quantity offered, in the type's unit"`
	Remaining decimal.Dec `json:"remaining" example:"120" doc:"What shops have not taken yet"`
	Price     decimal.Dec `json:"price" example:"1.6" doc:"Unit price HT in EUR per unit of the type"`
	// DistanceKm is the road distance from the shop reading it, nil for
	// the producer or when either is not placed.
	DistanceKm *float64 `json:"distanceKm" doc:"Road distance from the shop in km (great-circle × 1.3), null when unknown"`
}

// Input is what a producer sends to post an offer.
type Input struct {
	SuppliedProduct string
	Month           string
	Quantity        float64
	Price           float64
}

type row struct {
	ID           string      `db:"id"`
	Producer     string      `db:"producer_id"`
	ProducerName string      `db:"producer_name"`
	Product      string      `db:"supplied_product_id"`
	Month        string      `db:"month"`
	Quantity     decimal.Dec `db:"quantity"`
	Remaining    decimal.Dec `db:"remaining"`
	Price        decimal.Dec `db:"price"`
	LatE6        *int64      `db:"lat_e6"`
	LonE6        *int64      `db:"lon_e6"`
}

const rowColumns = `o.id, o.producer_id, u.name AS producer_name, o.supplied_product_id, o.month, o.quantity, o.remaining,
	o.price, u.lat_e6, u.lon_e6`

// live is the condition of an offer shops may take: not withdrawn, of a
// month not over, its product on sale, its producer's account open.
const live = `o.withdrawn_at IS NULL AND o.month >= ? AND u.closed_at IS NULL
	AND EXISTS (SELECT 1 FROM supplied_products s WHERE s.id = o.supplied_product_id AND s.retired_at IS NULL)`

// Create posts an offer of one of the producer's live products.
func Create(ctx context.Context, q store.Q, producerID string, in Input, now time.Time) (Offer, error) {
	var v core.ValidationError
	typ, err := supplied.LiveType(ctx, q, producerID, strings.TrimSpace(in.SuppliedProduct))
	var unit string
	switch {
	case errors.Is(err, core.ErrNotFound):
		v.Add("suppliedProduct", MsgProduct)
	case err != nil:
		return Offer{}, err
	default:
		p, err := catalog.ByID(ctx, q, typ)
		if err != nil {
			return Offer{}, err
		}
		unit = p.Unit
	}
	month, ok := calendar.ParseMonth(strings.TrimSpace(in.Month))
	if cur := calendar.MonthOf(now); !ok || month < cur || month > cur+MaxMonthsAhead {
		v.Add("month", MsgMonth)
	}
	var qty decimal.Dec
	if unit != "" {
		qty, err = positive(unit, in.Quantity)
		if fs := fieldsOf(err); fs != nil {
			v.Fields = append(v.Fields, fs...)
		} else if err != nil {
			return Offer{}, err
		}
	}
	price, err := trade.CheckPrice("price", in.Price)
	if fs := fieldsOf(err); fs != nil {
		v.Fields = append(v.Fields, fs...)
	}
	if err := v.Err(); err != nil {
		return Offer{}, err
	}
	// The producer's writes take turns (PostgreSQL): the count is decided
	// under its row's lock.
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM users WHERE id = ?`+store.ForUpdate(q), producerID); err != nil {
		return Offer{}, fmt.Errorf("offers: lock producer: %w", err)
	}
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM offers WHERE producer_id = ? AND withdrawn_at IS NULL AND month >= ?`,
		producerID, calendar.MonthOf(now).String()); err != nil {
		return Offer{}, fmt.Errorf("offers: count: %w", err)
	}
	if n >= MaxLive {
		return Offer{}, core.Refuse(core.ErrConflict, MsgTooMany)
	}
	id, ms := core.NewID(), now.UnixMilli()
	if _, err := store.Exec(ctx, q, `INSERT INTO offers (id, producer_id, supplied_product_id, month, quantity, remaining, price,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, producerID, strings.TrimSpace(in.SuppliedProduct), month.String(), qty, qty, price, ms, ms); err != nil {
		return Offer{}, fmt.Errorf("offers: insert: %w", err)
	}
	os, err := read(ctx, q, `o.id = ?`, []any{id}, nil)
	if err != nil {
		return Offer{}, err
	}
	return os[0], nil
}

// positive checks a quantity offered or taken: planning's rules for the
// unit, and more than zero.
func positive(unit string, f float64) (decimal.Dec, error) {
	d, err := planning.ParseQuantity("quantity", unit, f)
	if err == nil && d == 0 {
		err = core.Invalid("quantity", trade.MsgQuantityPositive)
	}
	return d, err
}

func fieldsOf(err error) []core.FieldError {
	var v *core.ValidationError
	if errors.As(err, &v) {
		return v.Fields
	}
	return nil
}

// Withdraw takes one of the producer's offers down: shops no longer see
// it; what they took stays theirs. Another's, or one already withdrawn,
// is core.ErrNotFound.
func Withdraw(ctx context.Context, q store.Q, producerID, id string, now time.Time) error {
	n, err := store.Exec(ctx, q, `UPDATE offers SET withdrawn_at = ?, updated_at = ?
		WHERE id = ? AND producer_id = ? AND withdrawn_at IS NULL`, now.UnixMilli(), now.UnixMilli(), id, producerID)
	if err != nil {
		return fmt.Errorf("offers: withdraw: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("offers: %s: %w", id, core.ErrNotFound)
	}
	return nil
}

// Own lists the producer's offers not withdrawn whose month is not over,
// taken up or not, by month then product name.
func Own(ctx context.Context, q store.Q, producerID string, now time.Time) ([]Offer, error) {
	return read(ctx, q, `o.producer_id = ? AND o.withdrawn_at IS NULL AND o.month >= ?`,
		[]any{producerID, calendar.MonthOf(now).String()}, nil)
}

// Filter is what a shop's list of offers is restricted to; "" is any.
type Filter struct {
	// Type is a catalogue product type; Month a month ("2027-02-01");
	// Producer a producer's id (its page).
	Type, Month, Producer string
}

// ForShop lists the offers shopID may take that match f, with something
// left: nearest producer first (road distance; a producer not placed
// last), then by month and product name; at most MaxListed.
func ForShop(ctx context.Context, q store.Q, shopID string, f Filter, now time.Time) ([]Offer, error) {
	var w store.Where
	w.And(true, live, calendar.MonthOf(now).String()).
		And(true, "o.remaining > 0").
		And(f.Producer != "", "o.producer_id = ?", f.Producer).
		And(f.Month != "", "o.month = ?", monthOf(f.Month)).
		And(f.Type != "", "o.supplied_product_id IN (SELECT id FROM supplied_products WHERE product_id = ?)", f.Type)
	var shop []struct {
		LatE6 *int64 `db:"lat_e6"`
		LonE6 *int64 `db:"lon_e6"`
	}
	if err := store.Select(ctx, q, &shop, `SELECT lat_e6, lon_e6 FROM users WHERE id = ?`, shopID); err != nil {
		return nil, fmt.Errorf("offers: shop: %w", err)
	}
	var from *fees.Point
	if len(shop) == 1 {
		from = point(shop[0].LatE6, shop[0].LonE6)
	}
	out, err := read(ctx, q, w.SQL(), w.Args(), from)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b Offer) int {
		switch {
		case a.DistanceKm != nil && b.DistanceKm != nil && *a.DistanceKm != *b.DistanceKm:
			return cmp.Compare(*a.DistanceKm, *b.DistanceKm)
		case (a.DistanceKm == nil) != (b.DistanceKm == nil):
			if a.DistanceKm == nil {
				return 1
			}
			return -1
		}
		return 0
	})
	if len(out) > MaxListed {
		out = out[:MaxListed]
	}
	return out, nil
}

// monthOf is a month as stored, from any date of it; "" when unreadable
// (matching no offer).
func monthOf(s string) string {
	m, ok := calendar.ParseMonth(strings.TrimSpace(s))
	if !ok {
		return "-"
	}
	return m.String()
}

func point(lat, lon *int64) *fees.Point {
	if lat == nil || lon == nil {
		return nil
	}
	return &fees.Point{Lat: float64(*lat) / 1e6, Lon: float64(*lon) / 1e6}
}

// read reads the offers matching where, by month then product name, with
// their products; from, when set, is the shop their distance counts from.
func read(ctx context.Context, q store.Q, where string, args []any, from *fees.Point) ([]Offer, error) {
	var rows []row
	if err := store.Select(ctx, q, &rows, `SELECT `+rowColumns+` FROM offers o JOIN users u ON u.id = o.producer_id
		JOIN supplied_products sp ON sp.id = o.supplied_product_id
		WHERE `+where+` ORDER BY o.month, sp.name_key, o.id LIMIT 2000`, args...); err != nil {
		return nil, fmt.Errorf("offers: read: %w", err)
	}
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.Product)
	}
	products, err := supplied.ByIDs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Offer, 0, len(rows))
	for _, r := range rows {
		o := Offer{ID: r.ID, Producer: r.Producer, ProducerName: r.ProducerName, Product: products[r.Product],
			Month: r.Month, Quantity: r.Quantity, Remaining: r.Remaining, Price: r.Price}
		if farm := point(r.LatE6, r.LonE6); farm != nil && from != nil {
			km := math.Round(fees.RoadKm(*from, *farm)*10) / 10
			o.DistanceKm = &km
		}
		out = append(out, o)
	}
	return out, nil
}

// Take turns quantity of an offer into shop's need and the producer's
// commitment on it, in q's transaction, through the operations a shop and
// a producer would play: the shop's need of the offer's type and month is
// created, or raised so that what is still open on it holds the quantity
// (planning.Create, planning.Update); the producer's proposal is made from
// the offer, naming its product, at its price (trade.Propose, the
// producer's side); the shop accepts it (trade.Review). The offer's
// remaining quantity goes down and the take is kept. It answers the
// acceptance's outcome, as the shop sees it.
func Take(ctx context.Context, q store.Q, shop accounts.User, offerID string, quantity float64, now time.Time) (trade.Outcome, error) {
	if !shop.IsDistributor() {
		return trade.Outcome{}, core.Refuse(core.ErrForbidden, MsgOwnOffer)
	}
	var o struct {
		Producer  string      `db:"producer_id"`
		Product   string      `db:"supplied_product_id"`
		Month     string      `db:"month"`
		Remaining decimal.Dec `db:"remaining"`
		Price     decimal.Dec `db:"price"`
		Live      bool        `db:"live"`
		Type      string      `db:"product_id"`
		Unit      string      `db:"unit"`
	}
	err := store.Get(ctx, q, &o, `SELECT o.producer_id, o.supplied_product_id, o.month, o.remaining, o.price,
		(`+live+`) AS live, s.product_id, p.unit
		FROM offers o JOIN users u ON u.id = o.producer_id JOIN supplied_products s ON s.id = o.supplied_product_id
		JOIN products p ON p.id = s.product_id WHERE o.id = ?`+store.ForUpdateOf(q, "o"),
		calendar.MonthOf(now).String(), offerID)
	if store.IsNotFound(err) {
		return trade.Outcome{}, fmt.Errorf("offers: %s: %w", offerID, core.ErrNotFound)
	}
	if err != nil {
		return trade.Outcome{}, fmt.Errorf("offers: take %s: %w", offerID, err)
	}
	if !o.Live || o.Remaining == 0 {
		return trade.Outcome{}, core.Refuse(core.ErrConflict, MsgGone)
	}
	qty, err := positive(o.Unit, quantity)
	if err != nil {
		return trade.Outcome{}, err
	}
	if qty > o.Remaining {
		return trade.Outcome{}, core.Invalid("quantity", fmt.Sprintf(MsgRemaining, catalog.QuantityText(o.Remaining, o.Unit)))
	}
	producer, err := accounts.ByID(ctx, q, o.Producer)
	if err != nil {
		return trade.Outcome{}, fmt.Errorf("offers: producer: %w", err)
	}
	if !producer.HasDeliveryDays() {
		return trade.Outcome{}, core.Refuse(core.ErrConflict, MsgNoDays)
	}
	needID, err := needFor(ctx, q, shop.ID, producer.ID, o.Type, o.Month, qty, now)
	if err != nil {
		return trade.Outcome{}, err
	}
	product := o.Product
	if _, err := trade.Propose(ctx, q, producer, needID, producer.ID,
		trade.Offer{Quantity: qty.Float(), Price: o.Price.Float(), Product: &product, Taken: true}, now); err != nil {
		return trade.Outcome{}, err
	}
	out, err := trade.Review(ctx, q, shop, needID, producer.ID, true, now)
	if err != nil {
		return trade.Outcome{}, err
	}
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE offers SET remaining = remaining - ?, updated_at = ? WHERE id = ?`,
		qty, ms, offerID); err != nil {
		return trade.Outcome{}, fmt.Errorf("offers: take %s: %w", offerID, err)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO offer_takes (id, offer_id, distributor_id, need_id, quantity, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, core.NewID(), offerID, shop.ID, needID, qty, ms); err != nil {
		return trade.Outcome{}, fmt.Errorf("offers: take %s: %w", offerID, err)
	}
	return out, nil
}

// needFor is the shop's need of typ and month ready to take qty from the
// producer: created for qty when the shop has none; raised, when what is
// still open on it is less than qty, by what is missing. A need the
// producer already negotiates is refused: its proposal is answered in the
// planner.
func needFor(ctx context.Context, q store.Q, shopID, producerID, typ, month string, qty decimal.Dec, now time.Time) (string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		shopID, typ, month); err != nil {
		return "", fmt.Errorf("offers: need: %w", err)
	}
	if len(ids) == 0 {
		v, err := planning.Create(ctx, q, shopID, planning.NeedInput{ProductID: typ, Date: month, Quantity: qty.Float()}, now)
		return v.ID, err
	}
	n, ps, err := planning.Get(ctx, q, ids[0])
	if err != nil {
		return "", err
	}
	if _, commitment, open := trade.StateOf(ps, producerID); commitment != nil || open != nil {
		return "", core.Refuse(core.ErrConflict, MsgAlreadyTrade)
	}
	if available := planning.ViewOf(n, ps).QuantityAvailable; available < qty {
		if _, err := planning.Update(ctx, q, shopID, n.ID, (n.Quantity + qty - available).Float(), now); err != nil {
			return "", err
		}
	}
	return n.ID, nil
}

// Taken is a take of an offer, as the data export shows it.
type Taken struct {
	Offer    string      `json:"offer" db:"offer_id"`
	Shop     string      `json:"shop" db:"distributor_id"`
	Need     string      `json:"need" db:"need_id"`
	Quantity decimal.Dec `json:"quantity" db:"quantity"`
	// Returned is what the take gave back to the offer when the
	// commitment made from it was corrected down or ended.
	Returned  decimal.Dec `json:"returned" db:"returned"`
	CreatedAt int64       `json:"createdAt" db:"created_at"`
}

// Export is what the data export of an account holds of offers: a
// producer's offers (withdrawn ones too) and what shops took of them; a
// shop's takes.
type Export struct {
	Offers []Offer `json:"offers"`
	Takes  []Taken `json:"takes"`
}

// ExportOf reads userID's offers and takes for its data export.
func ExportOf(ctx context.Context, q store.Q, userID string) (Export, error) {
	os, err := read(ctx, q, `o.producer_id = ?`, []any{userID}, nil)
	if err != nil {
		return Export{}, err
	}
	ts := []Taken{}
	if err := store.Select(ctx, q, &ts, `SELECT t.offer_id, t.distributor_id, t.need_id, t.quantity, t.returned, t.created_at
		FROM offer_takes t JOIN offers o ON o.id = t.offer_id WHERE t.distributor_id = ? OR o.producer_id = ?
		ORDER BY t.created_at, t.id`, userID, userID); err != nil {
		return Export{}, fmt.Errorf("offers: export: %w", err)
	}
	return Export{Offers: os, Takes: ts}, nil
}
