package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/accounts"
	"primeur/core/shopmap"
)

// MapInput is the map's visible area and zoom. The bounds are checked by
// core/shopmap (French messages on each parameter); they are not bounded
// in the schema, whose refusals would be huma's English.
type MapInput struct {
	South float64 `query:"south" required:"true" doc:"Southern latitude of the visible area, WGS 84 degrees, -90 to 90, under north" example:"45.68"`
	West  float64 `query:"west" required:"true" doc:"Western longitude of the visible area, WGS 84 degrees, -180 to 180, under east (the map never crosses the antimeridian)" example:"5.80"`
	North float64 `query:"north" required:"true" doc:"Northern latitude of the visible area, WGS 84 degrees, -90 to 90" example:"46.41"`
	East  float64 `query:"east" required:"true" doc:"Eastern longitude of the visible area, WGS 84 degrees, -180 to 180" example:"7.05"`
	Zoom  float64 `query:"zoom" required:"true" doc:"The map's zoom, 0.5 to 4 (PRODUCT §4 \"Map zoom\"): it sets the clusters' cell, 64 pixels of the map. The area may be at most 8,192 pixels high and wide at this zoom" example:"1"`
	// The filters (issue 39, PRODUCT §2 "Map"), checked by core/shopmap.
	Family string  `query:"family" maxLength:"200" doc:"A family of product types: only the shops with a need of one of its types, this month or later (an unknown family: none)" example:"fromages"`
	Km     float64 `query:"km" doc:"The farthest road distance from the viewer's own place (its farm, its shop), km, 0 to 1,000 (0: any); great-circle × 1.3 as the producers' search and the delivery fees count it" example:"50"`
}

// MapShopView is a shop on the map.
type MapShopView struct {
	ID        string  `json:"_id"`
	Name      string  `json:"name"`
	Email     string  `json:"email" doc:"The shop's login email, for itself and the producers trading with it (a commitment on one of its needs, or an order); empty otherwise"`
	Latitude  float64 `json:"latitude" doc:"WGS 84 degrees, to the millionth"`
	Longitude float64 `json:"longitude" doc:"WGS 84 degrees, to the millionth"`
	Score     int64   `json:"score" doc:"The shop's score in the ambassador programme (the map's tooltip): 1 point per euro of monthly purchases + 100 per month of commitment, as the platform stood at most a minute ago"`
}

// MapClusterView is the shops of one cell of the map's grid.
type MapClusterView struct {
	Count     int     `json:"count" doc:"How many shops the cell holds"`
	Latitude  float64 `json:"latitude" doc:"The mean latitude of its shops, where the map draws it"`
	Longitude float64 `json:"longitude" doc:"The mean longitude of its shops"`
	South     float64 `json:"south" doc:"The southernmost of its shops' latitudes: with north, west and east, the box that holds them, which a click on the cluster zooms to"`
	West      float64 `json:"west" doc:"The westernmost of its shops' longitudes"`
	North     float64 `json:"north" doc:"The northernmost of its shops' latitudes"`
	East      float64 `json:"east" doc:"The easternmost of its shops' longitudes"`
}

// MapOutput is what the map shows of its area.
type MapOutput struct {
	Body struct {
		Total    int              `json:"total" doc:"Shops in the area (placed, not closed)"`
		Shops    []MapShopView    `json:"shops" doc:"The area's shops by name when they are 300 or fewer; empty otherwise"`
		Clusters []MapClusterView `json:"clusters" doc:"When the area holds more than 300 shops: their counts per cell of a grid fixed on the globe, 64 pixels at the zoom asked, adding up to total; empty otherwise"`
	}
}

// ShopInput names a shop.
type ShopInput struct {
	ID string `path:"id" doc:"Shop id"`
}

// ShopOutput is a shop as its card names it.
type ShopOutput struct {
	Body struct {
		ID    string `json:"_id"`
		Name  string `json:"name"`
		Email string `json:"email" doc:"The shop's login email, for itself and the producers trading with it; empty otherwise"`
	}
}

func (d *Daemon) registerMap(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-map", Method: http.MethodGet, Path: "/map", Tags: []string{"Map"},
		Summary: "The shops of the map's visible area",
		Description: "The map of shops asks for what it shows (PRODUCT §2 \"Map\"): the shops of the area, with their " +
			"score, when they are 300 or fewer, else their counts per cell of a grid whose size follows the zoom. " +
			"Shops without a position and closed shops are never on it. Both roles; the cost follows the area, " +
			"not the platform (one indexed query, docs/BENCHMARKS.md \"The map by viewport\"). It may keep only the shops " +
			"with a need of a family and those within a road distance of the viewer (a viewer without a place asking a " +
			"distance is refused).",
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, d.getMap)

	huma.Register(api, huma.Operation{
		OperationID: "get-shop", Method: http.MethodGet, Path: "/shops/{id}", Tags: []string{"Map"},
		Summary: "A shop's name",
		Description: "What the page of a shop's needs shows of it when the user load does not name it (a producer " +
			"opening, from the map, a shop it does not trade with yet). 404 for an unknown or closed shop. Both roles.",
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, d.getShop)
}

func (d *Daemon) getMap(ctx context.Context, in *MapInput) (*MapOutput, error) {
	u := currentUser(ctx)
	v, err := shopmap.Filtered(ctx, d.db, u.ID, shopmap.Box{South: in.South, West: in.West, North: in.North, East: in.East, Zoom: in.Zoom},
		shopmap.Filter{Family: in.Family, MaxKm: in.Km}, d.now())
	if err != nil {
		return nil, inQuery(err)
	}
	out := &MapOutput{}
	out.Body.Total = v.Total
	out.Body.Shops = make([]MapShopView, len(v.Shops))
	out.Body.Clusters = make([]MapClusterView, len(v.Clusters))
	if len(v.Shops) > 0 {
		b, err := d.board(ctx)
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(v.Shops))
		for i, s := range v.Shops {
			ids[i] = s.ID
		}
		scores := b.Scores(ids)
		for i, s := range v.Shops {
			out.Body.Shops[i] = MapShopView{
				ID: s.ID, Name: s.Name, Email: s.Email, Score: scores[i].Score,
				Latitude: accounts.Degrees(s.LatE6), Longitude: accounts.Degrees(s.LonE6),
			}
		}
	}
	for i, c := range v.Clusters {
		out.Body.Clusters[i] = MapClusterView{
			Count: c.Count, Latitude: accounts.Degrees(c.LatE6), Longitude: accounts.Degrees(c.LonE6),
			South: accounts.Degrees(c.South), West: accounts.Degrees(c.West),
			North: accounts.Degrees(c.North), East: accounts.Degrees(c.East),
		}
	}
	return out, nil
}

func (d *Daemon) getShop(ctx context.Context, in *ShopInput) (*ShopOutput, error) {
	s, err := accounts.ShopFor(ctx, d.db, currentUser(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	out := &ShopOutput{}
	out.Body.ID, out.Body.Name, out.Body.Email = s.ID, s.Name, s.Email
	return out, nil
}
