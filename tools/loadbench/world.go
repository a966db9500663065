package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/demo"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade/tradetest"
)

// The platform is made of regions of the same shape, each around a town:
// 20 shops and 100 producers, the producers grouped in 20 specialities of
// 5 farms. A shop buys each speciality from one of its 5 farms, so it deals
// with 20 producers and each producer with 4 shops of its region. Products
// are shared by every region. Region 0 is the same whatever the number of
// regions, so its users have the same own data on a platform of 1 region
// and on one of 10: the growth of their user load is the platform's part.
const (
	shopsPerRegion     = 20
	producersPerRegion = 100
	specialities       = 20
	farmsPerSpeciality = producersPerRegion / specialities
	syntheticProducts  = 90
	monthsBack         = 12 // needs and commitments from 12 months back
	monthsAhead        = 11 // needs up to 11 months ahead
	// Password is every seeded account's password (one argon2 hash shared).
	Password = "loadbench2026"
)

// The measured users, in region 0.
const (
	largestShop      = 0 // 150 products
	typicalShop      = 1 // 60 products
	measuredProducer = 0 // sells to shops 0, 5, 10 and 15
)

type town struct {
	name     string
	postcode string
	lat, lon float64
}

// towns are the regions' centres, cycled beyond ten regions.
var towns = []town{
	{"Annecy", "74000", 45.8992, 6.1294}, {"Lyon", "69003", 45.7640, 4.8357},
	{"Grenoble", "38000", 45.1885, 5.7245}, {"Chambéry", "73000", 45.5646, 5.9178},
	{"Valence", "26000", 44.9334, 4.8924}, {"Clermont-Ferrand", "63000", 45.7772, 3.0870},
	{"Saint-Étienne", "42000", 45.4397, 4.3872}, {"Bourg-en-Bresse", "01000", 46.2052, 5.2255},
	{"Dijon", "21000", 47.3220, 5.0415}, {"Besançon", "25000", 47.2378, 6.0241},
}

var (
	shopKinds  = []string{"Épicerie", "Primeur", "Halle", "Comptoir", "Marché", "Cave et potager"}
	farmKinds  = []string{"Ferme", "Vergers", "Maraîchers", "Jardins", "GAEC", "Domaine"}
	farmPlaces = []string{"des Prés", "du Coteau", "de la Source", "des Saules", "du Moulin", "des Combes", "de la Grange", "du Verger"}
	streets    = []string{"rue du Marché", "place de l'Église", "avenue de la Gare", "rue des Halles", "chemin des Vignes", "route des Crêts"}
)

// world holds what every region shares: the clock, the products and the
// months of needs.
type world struct {
	now      time.Time // in the business time zone
	rules    delivery.Rules
	hash     string
	products []catalog.Product // biggest shares first, then the synthetic ones
	index    map[string]int
	months   []calendar.Month // monthsBack before the current month to monthsAhead after
	current  string
	locked   string // the latest delivery date locked at now
	billable string // orders of months before this one are invoiced
}

func newWorld(now time.Time, rules delivery.Rules, hash string, products []catalog.Product) *world {
	ps := append([]catalog.Product(nil), products...)
	sort.SliceStable(ps, func(a, b int) bool {
		sa, sb := strings.HasPrefix(ps[a].ID, "local-"), strings.HasPrefix(ps[b].ID, "local-")
		if sa != sb {
			return !sa
		}
		if ps[a].Share != ps[b].Share {
			return ps[a].Share > ps[b].Share
		}
		return ps[a].ID < ps[b].ID
	})
	w := &world{now: now, rules: rules, hash: hash, products: ps, index: map[string]int{}}
	for i, p := range ps {
		w.index[p.ID] = i
	}
	w.current = calendar.MonthOf(now).String()
	for i := -monthsBack; i <= monthsAhead; i++ {
		w.months = append(w.months, calendar.MonthOf(now).AddMonths(i))
	}
	w.locked = rules.LockedThrough(now)
	w.billable = billing.BillableBefore(now, rules.Location)
	return w
}

// syntheticCatalogue is the products added to the 60 of the catalogue: kg
// or pieces, a small share of turnover, a reference price, and the seasons
// of a catalogue product.
func syntheticCatalogue(base []catalog.Product) []catalog.Product {
	out := make([]catalog.Product, syntheticProducts)
	for i := range out {
		name := fmt.Sprintf("Produit local %03d", i+1)
		p := catalog.Product{
			ID: fmt.Sprintf("local-%03d", i+1), Name: name, NameKey: catalog.NameKey(name), Unit: catalog.Kg,
			Share: 15, RefPrice: decimal.Dec(150 + (i*37)%500), CoefsRaw: base[i%len(base)].CoefsRaw,
		}
		if i%4 == 0 {
			p.Unit = catalog.Piece
		}
		out[i] = p
	}
	return out
}

// mix is a deterministic hash of its parts (splitmix64 steps).
func mix(parts ...int) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, p := range parts {
		h ^= uint64(p) + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
		h ^= h >> 30
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 27
		h *= 0x94D049BB133111EB
		h ^= h >> 31
	}
	return h
}

// frac maps a hash to [0, 1).
func frac(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// shopSize is how many products shop k plans.
func shopSize(k int) int {
	switch k {
	case largestShop:
		return 150
	case typicalShop:
		return 60
	}
	return 30 + (k*37)%91
}

// turnover is shop k's annual fruit-and-vegetable turnover in euros.
func turnover(k int) float64 {
	switch k {
	case largestShop:
		return 900_000
	case typicalShop:
		return 150_000
	}
	return float64(80_000 + (k*53)%40*10_000)
}

// farmOf is the producer (index in its region) shop k buys speciality s from.
func farmOf(k, s int) int { return s + specialities*((k+s)%farmsPerSpeciality) }

// region is everything one region holds, in core types, ready to write:
// its trade goes through the operations (tradetest.Play: batch), trade
// planning the orders and their deliveries; the invoices are issued by
// billing.Issue.
type region struct {
	r         int
	shops     []accounts.User
	producers []accounts.User
	needs     []planning.Need
	batch     tradetest.Batch
	events    []activity.Event // the needs' imports; trade's are the operations'
	trips     []trip
	// once written:
	written    []orders.Full
	deliveries int
	lines      int
	invoices   int // issued by bill
}

// trip is a commitment of next month a producer corrects and its shop
// accepts, again and again, in the proposal round-trip measurement.
type trip struct {
	NeedID        string     `json:"needId"`
	ProducerID    string     `json:"producerId"`
	ProducerEmail string     `json:"producerEmail"`
	ShopEmail     string     `json:"shopEmail"`
	Quantities    [2]float64 `json:"quantities"`
	Price         float64    `json:"price"`
	// shopID, productID and month name the need until the seed wrote it:
	// planning's write path gives the need its own id (insertRegion reads
	// it into NeedID).
	shopID, productID, month string
}

// commitment is an accepted proposal as the orders need it.
type commitment struct {
	product  catalog.Product
	quantity decimal.Dec
	price    decimal.Dec
	proposed time.Time
	accepted time.Time
}

type orderKey struct{ shop, farm, month int }

func (w *world) monthStart(key string) time.Time {
	m, ok := calendar.ParseMonth(key)
	if !ok {
		panic("loadbench: month " + key)
	}
	return m.Start(w.rules.Location)
}

// region builds region r.
func (w *world) region(r int) *region {
	g := &region{r: r}
	created := w.now.AddDate(0, -monthsBack-2, 0)
	for k := range shopsPerRegion {
		g.shops = append(g.shops, w.shop(r, k, created))
	}
	for j := range producersPerRegion {
		g.producers = append(g.producers, w.producer(r, j, created))
	}

	byOrder := map[orderKey][]commitment{}
	needsAt := w.now.AddDate(0, -monthsBack-1, -7)
	for k, shop := range g.shops {
		n := shopSize(k)
		count := 0
		for _, line := range planning.Standard(w.products[:n], turnover(k), w.months) {
			i := w.index[line.Product.ID]
			s := i % specialities
			j := farmOf(k, s)
			farm := g.producers[j]
			for mi, qty := range line.Quantities {
				if qty <= 0 {
					continue
				}
				month := w.months[mi].String()
				need := planning.Need{
					ID: core.NewID(), DistributorID: shop.ID, ProductID: line.Product.ID, Month: month,
					Quantity: qty, CreatedAt: needsAt.UnixMilli(), UpdatedAt: needsAt.UnixMilli(),
				}
				g.needs = append(g.needs, need)
				count++
				offset := mi - monthsBack
				commit := offset <= 0 || (offset == 1 && i%3 == 0)
				pending := (offset == 1 && i%3 == 1) || (offset == 2 && i%4 == 0)
				if !commit && !pending {
					continue
				}
				h := mix(r, k, i, mi)
				share := 0.3
				if commit {
					share = 0.55 + 0.4*frac(h)
				}
				p := planning.Proposal{
					NeedID: need.ID, Producer: farm.ID, From: planning.FromProducer,
					Quantity: part(qty, share, line.Product.Unit), Price: w.price(r, j, i, mi, line.Product),
				}
				at := w.proposalTime(month, k, s)
				if !commit {
					g.batch.Pending = append(g.batch.Pending, tradetest.Pending{
						ProducerID: farm.ID, ShopID: shop.ID, ProductID: line.Product.ID, Month: month,
						Quantity: p.Quantity, Price: p.Price, At: at,
					})
					continue
				}
				key := orderKey{k, j, mi}
				byOrder[key] = append(byOrder[key], commitment{
					product: line.Product, quantity: p.Quantity, price: p.Price, proposed: at,
					accepted: at.Add(2*time.Hour + time.Duration(i%5)*10*time.Minute),
				})
				if offset == 1 && k > typicalShop {
					g.addTrip(shop, farm, need, p, line.Product)
				}
			}
		}
		g.events = append(g.events, activity.Event{
			ID: core.NewID(), CreatedAt: needsAt, Type: activity.NeedImport, Data: activity.Data{Count: &count}, OriginID: shop.ID,
		})
	}
	w.plan(g, byOrder)
	return g
}

// addTrip keeps up to 16 round-trip targets, one per producer.
func (g *region) addTrip(shop, farm accounts.User, need planning.Need, p planning.Proposal, product catalog.Product) {
	if len(g.trips) >= 16 {
		return
	}
	for _, t := range g.trips {
		if t.ProducerID == farm.ID {
			return
		}
	}
	step := decimal.Dec(100)
	if !catalog.Whole(product.Unit) {
		step = max(1, p.Quantity/10)
	}
	if p.Quantity <= step {
		return
	}
	g.trips = append(g.trips, trip{
		NeedID: need.ID, ProducerID: farm.ID, ProducerEmail: farm.Email, ShopEmail: shop.Email,
		Quantities: [2]float64{(p.Quantity - step).Float(), p.Quantity.Float()}, Price: p.Price.Float(),
		shopID: shop.ID, productID: need.ProductID, month: need.Month,
	})
}

// part is share of a need, in hundredths for kg and whole pieces, at least
// one unit (or the need when smaller).
func part(need decimal.Dec, share float64, unit string) decimal.Dec {
	q := decimal.Dec(float64(need) * share)
	if catalog.Whole(unit) {
		q = q / 100 * 100
		if q == 0 {
			q = 100
		}
	}
	return max(1, min(q, need))
}

// price is producer j's price of product i in month mi: the reference
// price moved by producer and a little by month, in cents.
func (w *world) price(r, j, i, mi int, p catalog.Product) decimal.Dec {
	f := (0.88 + 0.24*frac(mix(r, j, i))) * (0.98 + 0.04*frac(mix(r, j, i, mi)))
	return max(1, decimal.Dec(float64(p.RefPrice)*f+0.5))
}

// proposalTime is when the producer offered a month's quantity: on the
// 18th of the month before, in the morning, or three days before now for
// the months that start too soon.
func (w *world) proposalTime(month string, k, s int) time.Time {
	offset := time.Duration((k*7+s*3)%40) * 15 * time.Minute
	t := w.monthStart(month).AddDate(0, -1, 17).Add(8*time.Hour + offset)
	if latest := w.now.Add(-72 * time.Hour); t.After(latest) {
		t = latest.Add(-offset)
	}
	return t
}

// plan gives the region's commitments to tradetest.Play, one agreement per
// order — accepted at the time of its first commitment, planned on the
// producer's days — with what became of each delivery: done up to the
// lock, with notes sent, some short, some cancelled, a few claims; planned
// after.
func (w *world) plan(g *region, byOrder map[orderKey][]commitment) {
	keys := make([]orderKey, 0, len(byOrder))
	for k := range byOrder {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		x, y := keys[a], keys[b]
		if x.month != y.month {
			return x.month < y.month
		}
		if x.shop != y.shop {
			return x.shop < y.shop
		}
		return x.farm < y.farm
	})
	for _, key := range keys {
		cs := byOrder[key]
		first, proposed := cs[0].accepted, cs[0].proposed
		for _, c := range cs {
			if c.accepted.Before(first) {
				first = c.accepted
			}
			if c.proposed.Before(proposed) {
				proposed = c.proposed
			}
		}
		month := w.months[key.month].String()
		a := tradetest.Agreement{
			ProducerID: g.producers[key.farm].ID, ShopID: g.shops[key.shop].ID, Month: month, ProposedAt: proposed, At: first,
		}
		for _, c := range cs {
			a.Commitments = append(a.Commitments, tradetest.Commitment{ProductID: c.product.ID, Quantity: c.quantity, Price: c.price})
		}
		a.Outcome = func(i int, d orders.FullDelivery) tradetest.Outcome {
			return w.outcome(mix(g.r, key.shop, key.farm, key.month, i), month, d)
		}
		g.batch.Agreements = append(g.batch.Agreements, a)
	}
}

// outcome is what became of a delivery, drawn from h: past its lock, one
// in 40 of the months over was cancelled, the others done with their note
// sent, one in 9 with its first line 5 % short, and one in 30 of the
// months over with a quality claim; later ones are planned.
func (w *world) outcome(h uint64, month string, d orders.FullDelivery) tradetest.Outcome {
	if d.Date > w.locked {
		return tradetest.Outcome{}
	}
	if month < w.current && h%40 == 0 {
		return tradetest.Outcome{Status: orders.Cancelled}
	}
	lock := w.rules.LockTime(d.Date)
	out := tradetest.Outcome{Status: orders.Done, NoteSentAt: lock.Add(delivery.NoteDelay)}
	first := d.Lines[0]
	sent := first.QuantityExpected
	if h%9 == 1 {
		if q := short(sent, w.unitOf(first.ProductID)); q != sent {
			sent = q
			out.Sent = map[string]decimal.Dec{first.ProductID: q}
		}
	}
	if month < w.current && h%30 == 2 {
		if claimed := short(sent, w.unitOf(first.ProductID)) - sent; claimed != 0 { // negative: 5 % unfit
			out.Claim = &tradetest.ClaimOutcome{
				Lines: map[string]tradetest.ClaimedLine{first.ProductID: {
					Quantity: claimed, Type: orders.ClaimQuality, Comment: "Quelques pièces abîmées au déballage",
				}},
				SentAt: lock.Add(3 * time.Hour), Status: orders.ClaimAccepted, ReviewedAt: lock.Add(23 * time.Hour),
			}
		}
	}
	return out
}

// bill issues, as the monthly run issues them (billing.Due, billing.Issue
// at the month's issue time), the invoices of the region's orders of the
// months over, and with each the credit notes of its accepted claims; and
// counts what trade wrote.
func (w *world) bill(ctx context.Context, q store.Q, g *region) error {
	months := make(map[string]string, len(g.written))
	for _, f := range g.written {
		months[f.ID] = f.Month
		g.deliveries += len(f.Deliveries)
		for _, d := range f.Deliveries {
			g.lines += len(d.Lines)
		}
	}
	due, err := billing.Due(ctx, q, w.now, w.rules.Location)
	if err != nil {
		return err
	}
	for _, id := range due {
		m, ok := calendar.ParseMonth(months[id])
		if !ok {
			continue // another region's
		}
		if _, err := billing.Issue(ctx, q, id, billing.IssueTime(m, w.rules.Location), w.rules.Location); err != nil {
			return err
		}
		g.invoices++
	}
	return nil
}

func (w *world) unitOf(product string) string { return w.products[w.index[product]].Unit }

// short is a delivery that came 5 % short (a piece less from 20 pieces).
func short(q decimal.Dec, unit string) decimal.Dec {
	if catalog.Whole(unit) {
		if q >= 2000 {
			return q - 100
		}
		return q
	}
	return q - q/20
}

// shop is shop k of region r: a complete shop profile near the region's
// town; the last shop of a region has no coordinates (not on the map).
func (w *world) shop(r, k int, created time.Time) accounts.User {
	t := towns[r%len(towns)]
	name := fmt.Sprintf("%s %s %d", shopKinds[k%len(shopKinds)], t.name, k+1)
	if r >= len(towns) {
		name = fmt.Sprintf("%s %s %d-%d", shopKinds[k%len(shopKinds)], t.name, r/len(towns)+1, k+1)
	}
	email := fmt.Sprintf("magasin-%02d-%02d@bench.primeur.fr", r, k)
	siren := accounts.LuhnComplete(fmt.Sprintf("%08d", (70_000_000+r*1000+k)%100_000_000))
	ms := created.UnixMilli()
	u := w.party(r, k, siren, created)
	u.ID, u.Type, u.Email, u.EmailKey, u.Name = core.NewID(), accounts.Distributor, email, accounts.EmailKey(email), name
	u.APE, u.Capital, u.Legal = "4721Z", "20000", "SARL au capital de 20 000 €, RCS "+t.name
	u.BillingAddressLine1, u.BillingAddressLine2 = u.AddressLine1, u.AddressLine2
	u.DeliveryDays = "0000000"
	if k == shopsPerRegion-1 {
		u.Latitude, u.Longitude = "", ""
	}
	u.CreatedAt, u.UpdatedAt = ms, ms
	return u
}

// producer is producer j of region r, delivering once or twice a week.
func (w *world) producer(r, j int, created time.Time) accounts.User {
	t := towns[r%len(towns)]
	name := fmt.Sprintf("%s %s %d", farmKinds[j%len(farmKinds)], farmPlaces[(j/len(farmKinds))%len(farmPlaces)], j+1)
	if r > 0 {
		name = fmt.Sprintf("%s (%s)", name, t.name)
	}
	if r >= len(towns) {
		name = fmt.Sprintf("%s %d", name, r/len(towns)+1)
	}
	email := fmt.Sprintf("ferme-%02d-%03d@bench.primeur.fr", r, j)
	siren := accounts.LuhnComplete(fmt.Sprintf("%08d", (80_000_000+r*1000+j)%100_000_000))
	ms := created.UnixMilli()
	u := w.party(r, 100+j, siren, created)
	u.ID, u.Type, u.Email, u.EmailKey, u.Name = core.NewID(), accounts.Producer, email, accounts.EmailKey(email), name
	u.APE, u.Capital, u.Legal = "0113Z", "7500", "EARL au capital de 7 500 €, RCS "+t.name
	if j%3 == 0 {
		u.Certification = "Agriculture biologique (FR-BIO-01)"
	}
	if j%7 == 3 {
		u.TVAIntracom = "" // franchise en base
	}
	days := []byte("0000000")
	days[j%5] = '1'
	if j%3 == 0 {
		days = []byte("0100100") // Tuesday and Friday
	}
	u.DeliveryDays = string(days)
	u.BillingMandateAt = &ms
	u.CreatedAt, u.UpdatedAt = ms, ms
	return u
}

// party fills the identity shared by shops and producers.
func (w *world) party(r, n int, siren string, created time.Time) accounts.User {
	t := towns[r%len(towns)]
	h := mix(r, n)
	lat := t.lat + 0.3*(frac(h)-0.5)
	lon := t.lon + 0.4*(frac(mix(r, n, 1))-0.5)
	bank := []string{"18106", "10807", "30002"}[n%3]
	return accounts.User{
		PasswordHash: w.hash, SIRET: accounts.LuhnComplete(siren + "0001"), TVAIntracom: accounts.FrenchVAT(siren),
		BIC:          []string{"AGRIFRPP881", "CCBPFRPPANN", "CRLYFRPPXXX"}[n%3],
		IBAN:         demo.FrenchIBAN(bank, "00010", fmt.Sprintf("%011d", 20_000_000+r*1000+n)),
		Tel:          fmt.Sprintf("04%08d", 50_000_000+r*1000+n),
		AddressLine1: fmt.Sprintf("%d %s", 1+n%60, streets[n%len(streets)]), AddressLine2: t.postcode + " " + t.name,
		Latitude: strconv.FormatFloat(lat, 'f', 4, 64), Longitude: strconv.FormatFloat(lon, 'f', 4, 64),
	}
}
