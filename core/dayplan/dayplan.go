// Package dayplan is a producer's delivery day (issue 40; PRODUCT §16
// "The farmer's day"): from the deliveries of one producer on one date that
// still go out — planned, or done (locked) — the pick sheet (each product,
// the day's total, per shop below it), the packing sheets (one per shop:
// its lines, its delivery note numbers, its address) and the round (the
// stops in a good order from the farm, with each stop's map link and the
// day's distance). The producer may reorder the stops by hand; that order
// is kept per producer and date (table round_stops) and a shop delivered
// later that day goes at the end.
package dayplan

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/address"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/places"
	"primeur/core/store"
)

// French refusals.
const (
	MsgDate  = "Date invalide : attendu AAAA-MM-JJ, par exemple 2026-11-24."
	MsgStops = "L'ordre de la tournée doit reprendre chaque arrêt du jour une seule fois."
)

// maxStops bounds the stops of an order a caller sends.
const maxStops = 500

// Line is a product to deliver to one shop.
type Line struct {
	Product  string      `json:"product" doc:"Product id"`
	Name     string      `json:"name" doc:"Product name"`
	Unit     string      `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	Quantity decimal.Dec `json:"quantity" doc:"Quantity to deliver: the one the shop set, else the one ordered"`
}

// PickShop is one shop's part of a product on the pick sheet.
type PickShop struct {
	ShopID   string      `json:"shopId"`
	Shop     string      `json:"shop"`
	Quantity decimal.Dec `json:"quantity"`
}

// PickItem is one product of the pick sheet: the day's total and each
// shop's part, in round order.
type PickItem struct {
	Product string      `json:"product" doc:"Product id"`
	Name    string      `json:"name"`
	Unit    string      `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	Total   decimal.Dec `json:"total"`
	Shops   []PickShop  `json:"shops"`
}

// Note is a delivery of the day, by its delivery note number.
type Note struct {
	OrderID    string `json:"orderId"`
	DeliveryID string `json:"deliveryId"`
	Number     string `json:"number" doc:"Delivery note number" example:"BL-000012"`
	Status     string `json:"status" enum:"planned,done"`
}

// Packing is the packing sheet of one shop.
type Packing struct {
	ShopID  string   `json:"shopId"`
	Shop    string   `json:"shop"`
	Address []string `json:"address" doc:"The shop's address lines"`
	Tel     string   `json:"tel,omitempty"`
	// Instructions and Hours are the shop's own, from its profile.
	Instructions string `json:"instructions,omitempty" doc:"The shop's delivery instructions (where to unload, whom to ask), as its profile gives them"`
	Hours        string `json:"hours,omitempty" doc:"The shop's opening hours or delivery window, as its profile gives them"`
	Notes        []Note `json:"notes" doc:"The day's delivery notes of this shop (one, unless several orders deliver it that day)"`
	Lines        []Line `json:"lines"`
}

// Located says where a position comes from.
const (
	// LocatedProfile: the latitude and longitude of the account's profile.
	LocatedProfile = "profile"
	// LocatedTown: the town of the address's postal code line (core/places),
	// a few kilometres off.
	LocatedTown = "town"
	// LocatedNone: no position; the stop comes last and counts no distance.
	LocatedNone = "none"
)

// Place is the farm or a stop on the round.
type Place struct {
	Address   []string `json:"address"`
	Located   string   `json:"located" enum:"profile,town,none" doc:"Where the position comes from: the profile's coordinates, the town of the postal code, or none"`
	Latitude  *float64 `json:"latitude,omitempty"`
	Longitude *float64 `json:"longitude,omitempty"`
	// MapURL opens the place in the phone's map app (RFC 5870 geo: URI).
	MapURL string `json:"mapUrl,omitempty" doc:"geo: URI (RFC 5870) opening the place in the phone's map app: the coordinates, and the address as the query"`
}

// Stop is one shop of the round.
type Stop struct {
	Place
	ShopID string `json:"shopId"`
	Shop   string `json:"shop"`
	// Hours is the shop's opening hours or delivery window.
	Hours string `json:"hours,omitempty" doc:"The shop's opening hours or delivery window, as its profile gives them"`
	// LegKm is the road-like distance from the previous stop with a
	// position (the farm for the first), nil when the stop or the farm
	// has none.
	LegKm *float64 `json:"legKm,omitempty" doc:"Distance from the previous stop with a position (the farm for the first), km; absent when this stop, or the farm, has no position"`
}

// Round is the day's stops in order.
type Round struct {
	Farm  Place  `json:"farm"`
	Stops []Stop `json:"stops"`
	// ReturnKm is the way back to the farm from the last stop with a
	// position.
	ReturnKm *float64 `json:"returnKm,omitempty" doc:"From the last stop with a position back to the farm, km"`
	// TotalKm adds every known leg, the way back included.
	TotalKm float64 `json:"totalKm" doc:"The day's distance, km: every known leg, the way back to the farm included"`
	// Complete is false when a place without position left legs out.
	Complete bool `json:"complete" doc:"false when a place without position left legs out of the total"`
	// Manual is true when the producer chose the order.
	Manual     bool    `json:"manual" doc:"true when the order is the producer's own; false when computed"`
	RoadFactor float64 `json:"roadFactor" doc:"The factor applied to great-circle distances" example:"1.3"`
}

// Day is a producer's delivery day.
type Day struct {
	Date     string     `json:"date" doc:"YYYY-MM-DD"`
	Producer string     `json:"producer" doc:"The producer's name"`
	Pick     []PickItem `json:"pick"`
	Packing  []Packing  `json:"packing" doc:"One packing sheet per shop, in round order"`
	Round    Round      `json:"round"`
}

// row is a line of a delivery of the day.
type row struct {
	DeliveryID string       `db:"delivery_id"`
	OrderID    string       `db:"order_id"`
	Status     string       `db:"status"`
	Chrono     int64        `db:"chrono"`
	ShopID     string       `db:"shop_id"`
	ProductID  *string      `db:"product_id"`
	Name       *string      `db:"name"`
	Unit       *string      `db:"unit"`
	Expected   *decimal.Dec `db:"quantity_expected"`
	Sent       *decimal.Dec `db:"quantity_sent"`
}

// CheckDate refuses a date that is not YYYY-MM-DD.
func CheckDate(date string) error {
	if _, ok := calendar.ParseDate(date); !ok {
		return core.Invalid("date", MsgDate)
	}
	return nil
}

// Load computes the day of producerID on date. A date without deliveries
// is an empty day; an unknown producer is core.ErrNotFound.
func Load(ctx context.Context, q store.Q, producerID, date string) (Day, error) {
	if err := CheckDate(date); err != nil {
		return Day{}, err
	}
	producer, err := accounts.ByID(ctx, q, producerID)
	if err != nil {
		return Day{}, fmt.Errorf("dayplan: producer: %w", err)
	}
	var rows []row
	if err := store.Select(ctx, q, &rows, `SELECT d.id AS delivery_id, d.order_id, d.status, d.chrono,
			o.distributor_id AS shop_id, l.product_id, p.name, p.unit, l.quantity_expected, l.quantity_sent
		FROM deliveries d
		JOIN orders o ON o.id = d.order_id
		LEFT JOIN delivery_lines l ON l.delivery_id = d.id
		LEFT JOIN products p ON p.id = l.product_id
		WHERE d.producer_id = ? AND d.date = ? AND d.status IN (?, ?)
		ORDER BY d.chrono, p.name, l.product_id`, producerID, date, orders.Planned, orders.Done); err != nil {
		return Day{}, fmt.Errorf("dayplan: deliveries: %w", err)
	}
	ref, err := places.Default()
	if err != nil {
		return Day{}, fmt.Errorf("dayplan: places: %w", err)
	}
	day := Day{Date: date, Producer: producer.Name, Pick: []PickItem{}, Packing: []Packing{}}

	// The packing sheets, by shop.
	sheets := map[string]*Packing{}
	shops := map[string]accounts.User{}
	var shopIDs []string
	seen := map[string]bool{}
	for _, r := range rows {
		p := sheets[r.ShopID]
		if p == nil {
			shop, err := accounts.ByID(ctx, q, r.ShopID)
			if err != nil {
				return Day{}, fmt.Errorf("dayplan: shop %s: %w", r.ShopID, err)
			}
			shops[r.ShopID] = shop
			p = &Packing{ShopID: shop.ID, Shop: shop.Name, Address: addressOf(shop), Tel: shop.Tel,
				Instructions: shop.DeliveryInstructions, Hours: shop.OpeningHours, Notes: []Note{}, Lines: []Line{}}
			sheets[r.ShopID] = p
			shopIDs = append(shopIDs, r.ShopID)
		}
		if !seen[r.DeliveryID] {
			seen[r.DeliveryID] = true
			p.Notes = append(p.Notes, Note{OrderID: r.OrderID, DeliveryID: r.DeliveryID, Number: billing.NoteNumber(r.Chrono), Status: r.Status})
		}
		if r.ProductID == nil {
			continue // a delivery without lines
		}
		qty := *r.Expected
		if r.Sent != nil {
			qty = *r.Sent
		}
		if qty == 0 {
			continue // nothing to pick nor pack
		}
		p.Lines = addLine(p.Lines, Line{Product: *r.ProductID, Name: *r.Name, Unit: *r.Unit, Quantity: qty})
	}

	round, err := roundOf(ctx, q, producer, date, shopIDs, shops, ref)
	if err != nil {
		return Day{}, err
	}
	day.Round = round
	for _, s := range round.Stops {
		p := sheets[s.ShopID]
		sort.SliceStable(p.Lines, func(i, j int) bool { return byName(p.Lines[i].Name, p.Lines[j].Name) })
		day.Packing = append(day.Packing, *p)
	}
	day.Pick = pickOf(day.Packing)
	return day, nil
}

// addLine adds l to lines, summing it into the line of the same product
// (two orders delivering one shop the same day).
func addLine(lines []Line, l Line) []Line {
	for i := range lines {
		if lines[i].Product == l.Product {
			lines[i].Quantity += l.Quantity
			return lines
		}
	}
	return append(lines, l)
}

// pickOf sums the packing sheets by product, by name; each product's shops
// in round order.
func pickOf(sheets []Packing) []PickItem {
	items := []PickItem{}
	index := map[string]int{}
	for _, p := range sheets {
		for _, l := range p.Lines {
			i, ok := index[l.Product]
			if !ok {
				i = len(items)
				index[l.Product] = i
				items = append(items, PickItem{Product: l.Product, Name: l.Name, Unit: l.Unit, Shops: []PickShop{}})
			}
			items[i].Total += l.Quantity
			items[i].Shops = append(items[i].Shops, PickShop{ShopID: p.ShopID, Shop: p.Shop, Quantity: l.Quantity})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return byName(items[i].Name, items[j].Name) })
	return items
}

// byName orders names as a French reader expects: accents and case
// aside ("Échalote" between "Carotte" and "Fraise"), then as written.
func byName(a, b string) bool {
	if ka, kb := places.Normalize(a), places.Normalize(b); ka != kb {
		return ka < kb
	}
	return a < b
}

// addressOf is an account's non-empty address lines.
func addressOf(u accounts.User) []string {
	out := []string{}
	for _, l := range []string{u.AddressLine1, u.AddressLine2, u.AddressLine3} {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// placeOf locates an account: its profile's coordinates, else the town of
// its address's postal code line, else nowhere.
func placeOf(u accounts.User, ref *places.Reference) (Place, *Point) {
	p := Place{Address: addressOf(u), Located: LocatedNone}
	var at *Point
	if u.LatE6 != nil && u.LonE6 != nil {
		p.Located = LocatedProfile
		at = &Point{accounts.Degrees(*u.LatE6), accounts.Degrees(*u.LonE6)}
	} else if _, code, city := address.City(p.Address); code != "" {
		if ms := ref.Search(code+" "+city, 1); len(ms) > 0 {
			p.Located = LocatedTown
			at = &Point{ms[0].Place.Lat, ms[0].Place.Lon}
		}
	}
	if at != nil {
		p.Latitude, p.Longitude = &at.Lat, &at.Lon
	}
	p.MapURL = geoURI(at, p.Address, u.Name)
	return p, at
}

// geoURI is the RFC 5870 geo: URI of a place: its coordinates (0,0 when
// unknown), and as the query its address — the map app finds the street,
// more precise than a town's position — or, without an address, the
// coordinates labelled with the name. "" when there is neither.
func geoURI(at *Point, lines []string, name string) string {
	coords := "0,0"
	if at != nil {
		coords = strconv.FormatFloat(at.Lat, 'f', 6, 64) + "," + strconv.FormatFloat(at.Lon, 'f', 6, 64)
	}
	switch {
	case len(lines) > 0:
		return "geo:" + coords + "?q=" + url.QueryEscape(strings.Join(lines, ", "))
	case at != nil:
		return "geo:" + coords + "?q=" + url.QueryEscape(coords+"("+name+")")
	}
	return ""
}

// roundOf orders the day's shops: the producer's own order when it chose
// one (shops it did not place at the end, in the computed order), else the
// computed one.
func roundOf(ctx context.Context, q store.Q, producer accounts.User, date string, shopIDs []string,
	shops map[string]accounts.User, ref *places.Reference) (Round, error) {
	farm, farmAt := placeOf(producer, ref)
	r := Round{Farm: farm, Stops: []Stop{}, Complete: true, RoadFactor: RoadFactor}
	if len(shopIDs) == 0 {
		return r, nil
	}
	sort.Slice(shopIDs, func(i, j int) bool {
		a, b := shops[shopIDs[i]], shops[shopIDs[j]]
		if byName(a.Name, b.Name) || byName(b.Name, a.Name) {
			return byName(a.Name, b.Name)
		}
		return a.ID < b.ID
	})
	stops := make([]Stop, len(shopIDs))
	points := make([]*Point, len(shopIDs))
	for i, id := range shopIDs {
		p, at := placeOf(shops[id], ref)
		stops[i] = Stop{Place: p, ShopID: id, Shop: shops[id].Name, Hours: shops[id].OpeningHours}
		points[i] = at
	}
	order := computed(farmAt, points)
	chosen, err := savedOrder(ctx, q, producer.ID, date)
	if err != nil {
		return r, err
	}
	if len(chosen) > 0 {
		r.Manual = true
		order = applyChosen(order, shopIDs, chosen)
	}
	prev := farmAt
	for _, i := range order {
		s := stops[i]
		s.LegKm = legKm(prev, points[i])
		if s.LegKm == nil {
			r.Complete = false
		} else {
			r.TotalKm += *s.LegKm
		}
		r.Stops = append(r.Stops, s)
		if points[i] != nil {
			prev = points[i] // a stop without position does not break the chain
		}
	}
	r.ReturnKm = legKm(prev, farmAt)
	if r.ReturnKm == nil {
		r.Complete = false
	} else {
		r.TotalKm += *r.ReturnKm
	}
	r.TotalKm = tenth(r.TotalKm)
	return r, nil
}

// computed is the automatic order of the stops: the located ones by Route
// from the farm (from their centre when the farm has no position), then
// the others in their given order (by name).
func computed(farm *Point, points []*Point) []int {
	var located []Point
	var idx, rest []int
	for i, p := range points {
		if p == nil {
			rest = append(rest, i)
			continue
		}
		located = append(located, *p)
		idx = append(idx, i)
	}
	start := farm
	if start == nil && len(located) > 0 {
		var c Point
		for _, p := range located {
			c.Lat += p.Lat / float64(len(located))
			c.Lon += p.Lon / float64(len(located))
		}
		start = &c
	}
	var order []int
	if start != nil {
		for _, k := range Route(*start, located) {
			order = append(order, idx[k])
		}
	}
	return append(order, rest...)
}

// applyChosen is the producer's order: the shops it placed, by its
// positions, then the others in the computed order.
func applyChosen(order []int, shopIDs []string, chosen map[string]int) []int {
	var placed, rest []int
	for _, i := range order {
		if _, ok := chosen[shopIDs[i]]; ok {
			placed = append(placed, i)
		} else {
			rest = append(rest, i)
		}
	}
	sort.SliceStable(placed, func(a, b int) bool { return chosen[shopIDs[placed[a]]] < chosen[shopIDs[placed[b]]] })
	return append(placed, rest...)
}

func savedOrder(ctx context.Context, q store.Q, producerID, date string) (map[string]int, error) {
	var rows []struct {
		ShopID   string `db:"shop_id"`
		Position int    `db:"position"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT shop_id, position FROM round_stops WHERE producer_id = ? AND date = ?`,
		producerID, date); err != nil {
		return nil, fmt.Errorf("dayplan: round order: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.ShopID] = r.Position
	}
	return out, nil
}

func legKm(a, b *Point) *float64 {
	if a == nil || b == nil {
		return nil
	}
	km := tenth(RoadKm(*a, *b))
	return &km
}

// tenth rounds km to a tenth of a kilometre.
func tenth(km float64) float64 { return math.Round(km*10) / 10 }

// SetOrder keeps the producer's order of the stops of its day: shopIDs
// lists every shop of the day once, in the order of the round; an empty
// list goes back to the computed order. Anything else is refused with
// MsgStops and changes nothing. It returns the day.
func SetOrder(ctx context.Context, q store.Q, producerID, date string, shopIDs []string, now time.Time) (Day, error) {
	day, err := Load(ctx, q, producerID, date)
	if err != nil {
		return Day{}, err
	}
	if len(shopIDs) > 0 {
		if len(shopIDs) != len(day.Round.Stops) || len(shopIDs) > maxStops {
			return Day{}, core.Invalid("stops", MsgStops)
		}
		of := map[string]bool{}
		for _, s := range day.Round.Stops {
			of[s.ShopID] = true
		}
		for _, id := range shopIDs {
			if !of[id] {
				return Day{}, core.Invalid("stops", MsgStops)
			}
			delete(of, id) // a shop twice is then unknown
		}
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM round_stops WHERE producer_id = ? AND date = ?`, producerID, date); err != nil {
		return Day{}, fmt.Errorf("dayplan: clear round order: %w", err)
	}
	for i, id := range shopIDs {
		if _, err := store.Exec(ctx, q, `INSERT INTO round_stops (producer_id, date, shop_id, position, updated_at)
			VALUES (?, ?, ?, ?, ?)`, producerID, date, id, i, now.UnixMilli()); err != nil {
			return Day{}, fmt.Errorf("dayplan: round order: %w", err)
		}
	}
	return Load(ctx, q, producerID, date)
}
