package supplied

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"primeur/core"
	"primeur/core/fees"
	"primeur/core/store"
)

// Filter is what a shop looks for among producers' products (PRODUCT §3
// "Producers' products", "Finding producers"): a product type or a family,
// a label, a road distance from the shop.
type Filter struct {
	// Type is a catalogue product type; Family a family ("" any).
	Type, Family string
	// Label is one of Labels' ids ("" any).
	Label string
	// MaxKm is the farthest road distance, in km (0: any; a producer not
	// placed on the map is then left out).
	MaxKm float64
}

// Found is a producer and its live products matching a Filter.
type Found struct {
	Producer string `json:"producer" doc:"The producer's id"`
	Name     string `json:"name"`
	// DistanceKm is the road distance from the shop (great-circle × 1.3,
	// as delivery fees count it), nil when either is not placed.
	DistanceKm *float64  `json:"distanceKm" doc:"Road distance from the shop in km (great-circle × 1.3), null when either is not placed"`
	Products   []Product `json:"products"`
}

// Bounds of a search.
const (
	// MaxFound bounds the producers a search answers, nearest first.
	MaxFound = 50
	// maxScanned bounds the products a search reads.
	maxScanned = 2000
	// MaxSearchKm bounds the distance asked.
	MaxSearchKm = 1000
)

// French refusals of a search.
const (
	MsgSearchLabel = "Choisissez un label de la liste."
	MsgSearchKm    = "La distance se compte en km, de 0 à 1 000."
)

// Find lists the producers whose live products match f, nearest to the
// shop first (then by name), with those products; at most MaxFound.
func Find(ctx context.Context, q store.Q, shopID string, f Filter) ([]Found, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT s.id FROM supplied_products s JOIN products p ON p.id = s.product_id
		JOIN users u ON u.id = s.producer_id
		WHERE s.retired_at IS NULL AND u.closed_at IS NULL AND (? = '' OR s.product_id = ?) AND (? = '' OR p.family_id = ?)
		AND (? = '' OR EXISTS (SELECT 1 FROM supplied_product_labels l WHERE l.supplied_product_id = s.id AND l.label = ?))
		ORDER BY s.producer_id, s.name_key LIMIT ?`,
		f.Type, f.Type, f.Family, f.Family, f.Label, f.Label, maxScanned); err != nil {
		return nil, fmt.Errorf("supplied: find: %w", err)
	}
	products, err := ByIDs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	byProducer := map[string][]Product{}
	for _, id := range ids {
		p := products[id]
		byProducer[p.Producer] = append(byProducer[p.Producer], p)
	}
	if len(byProducer) == 0 {
		return []Found{}, nil
	}
	producerIDs := make([]string, 0, len(byProducer))
	for id := range byProducer {
		producerIDs = append(producerIDs, id)
	}
	km, err := distances(ctx, q, shopID, producerIDs)
	if err != nil {
		return nil, err
	}
	var names []struct {
		ID   string `db:"id"`
		Name string `db:"name"`
	}
	if err := store.SelectIn(ctx, q, &names, `SELECT id, name FROM users WHERE id IN (?)`, producerIDs); err != nil {
		return nil, fmt.Errorf("supplied: find names: %w", err)
	}
	out := []Found{}
	for _, p := range names {
		ps, ok := byProducer[p.ID]
		if !ok || p.ID == shopID {
			continue
		}
		found := Found{Producer: p.ID, Name: p.Name, Products: ps, DistanceKm: km[p.ID]}
		if f.MaxKm > 0 && (found.DistanceKm == nil || *found.DistanceKm > f.MaxKm) {
			continue
		}
		out = append(out, found)
	}
	slices.SortFunc(out, func(a, b Found) int {
		switch {
		case a.DistanceKm != nil && b.DistanceKm != nil && *a.DistanceKm != *b.DistanceKm:
			return cmp.Compare(*a.DistanceKm, *b.DistanceKm)
		case (a.DistanceKm == nil) != (b.DistanceKm == nil):
			if a.DistanceKm == nil {
				return 1
			}
			return -1
		}
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Producer, b.Producer))
	})
	if len(out) > MaxFound {
		out = out[:MaxFound]
	}
	return out, nil
}

// MaxTypesScanned bounds the (type, producer) pairs Types reads.
const MaxTypesScanned = 5000

// Types lists the catalogue types of the live products matching f (its
// Type aside), sold by producers within f.MaxKm of the shop: what the
// planner keeps of its rows when a shop filters them by label and distance
// (PRODUCT §2 "Needs planner", "Filters"). The same rules as Find: the
// label one of Labels, the distance 0 (any) to MaxSearchKm, a producer not
// placed left out once a distance is asked; sorted, at most the types of
// MaxTypesScanned pairs.
func Types(ctx context.Context, q store.Q, shopID string, f Filter) ([]string, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	var pairs []struct {
		Type     string `db:"product_id"`
		Producer string `db:"producer_id"`
	}
	if err := store.Select(ctx, q, &pairs, `SELECT DISTINCT s.product_id, s.producer_id FROM supplied_products s
		JOIN products p ON p.id = s.product_id JOIN users u ON u.id = s.producer_id
		WHERE s.retired_at IS NULL AND u.closed_at IS NULL AND (? = '' OR p.family_id = ?)
		AND (? = '' OR EXISTS (SELECT 1 FROM supplied_product_labels l WHERE l.supplied_product_id = s.id AND l.label = ?))
		ORDER BY s.product_id, s.producer_id LIMIT ?`,
		f.Family, f.Family, f.Label, f.Label, MaxTypesScanned); err != nil {
		return nil, fmt.Errorf("supplied: types: %w", err)
	}
	near := map[string]bool{}
	if f.MaxKm > 0 {
		ids := make([]string, 0, len(pairs))
		for _, p := range pairs {
			ids = append(ids, p.Producer)
		}
		km, err := distances(ctx, q, shopID, ids)
		if err != nil {
			return nil, err
		}
		for id, d := range km {
			near[id] = d != nil && *d <= f.MaxKm
		}
	}
	out := []string{}
	for _, p := range pairs {
		if (f.MaxKm == 0 || near[p.Producer]) && (len(out) == 0 || out[len(out)-1] != p.Type) {
			out = append(out, p.Type)
		}
	}
	return out, nil
}

// check refuses a filter's label or distance (PRODUCT §3 "Finding
// producers"), on their query fields.
func (f Filter) check() error {
	var v core.ValidationError
	if _, ok := LabelOf(f.Label); f.Label != "" && !ok {
		v.Add("label", MsgSearchLabel)
	}
	if math.IsNaN(f.MaxKm) || f.MaxKm < 0 || f.MaxKm > MaxSearchKm {
		v.Add("km", MsgSearchKm)
	}
	return v.Err()
}

// distances are the road distances from the shop to each producer, nil
// for one not placed (or when the shop is not).
func distances(ctx context.Context, q store.Q, shopID string, producerIDs []string) (map[string]*float64, error) {
	type place struct {
		ID    string `db:"id"`
		LatE6 *int64 `db:"lat_e6"`
		LonE6 *int64 `db:"lon_e6"`
	}
	out := map[string]*float64{}
	if len(producerIDs) == 0 {
		return out, nil
	}
	var places []place
	if err := store.SelectIn(ctx, q, &places, `SELECT id, lat_e6, lon_e6 FROM users WHERE id IN (?) OR id = ?`,
		producerIDs, shopID); err != nil {
		return nil, fmt.Errorf("supplied: places: %w", err)
	}
	point := func(p place) *fees.Point {
		if p.LatE6 == nil || p.LonE6 == nil {
			return nil
		}
		return &fees.Point{Lat: float64(*p.LatE6) / 1e6, Lon: float64(*p.LonE6) / 1e6}
	}
	var shop *fees.Point
	for _, p := range places {
		if p.ID == shopID {
			shop = point(p)
		}
	}
	for _, p := range places {
		if p.ID == shopID {
			continue
		}
		out[p.ID] = nil
		if farm := point(p); farm != nil && shop != nil {
			km := math.Round(fees.RoadKm(*shop, *farm)*10) / 10
			out[p.ID] = &km
		}
	}
	return out, nil
}
