package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/places"
)

// PlacesInput is what a user typed in a place search.
type PlacesInput struct {
	Q     string `query:"q" maxLength:"100" doc:"What the user typed: a postal code or its start (2 to 5 digits), a town name (accents, case, hyphens, apostrophes, \"St\"/\"Ste\" and a typo or two forgiven), or both (\"74230 Thônes\"). Empty or blank: no answer" example:"74230 Thônes"`
	Limit int    `query:"limit" minimum:"1" maximum:"50" default:"10" doc:"Most answers, from 1 to 50; 10 when absent" example:"10"`
}

// PlaceView is one place found.
type PlaceView struct {
	Code        string   `json:"code" doc:"INSEE code of the place" example:"74280"`
	Kind        string   `json:"kind" enum:"commune,arrondissement,former" doc:"A current commune, a municipal arrondissement of Paris, Lyon or Marseille, or a former commune (delegated or associated) of a commune created by a merger"`
	Name        string   `json:"name" doc:"Official name, with its accents" example:"Thônes"`
	Commune     string   `json:"commune" doc:"For an arrondissement or a former commune, the name of the commune it belongs to; empty for a commune" example:""`
	Department  string   `json:"department" doc:"Department code" example:"74"`
	PostalCode  string   `json:"postalCode" doc:"The postal code to show with the place: the one that matched a postal code search, else the place's first" example:"74230"`
	PostalCodes []string `json:"postalCodes" doc:"Every postal code of the place (a former commune: those of its commune)" example:"[\"74230\"]"`
	Population  int      `json:"population" doc:"INSEE legal population; 0 for a former commune" example:"6719"`
	Latitude    float64  `json:"latitude" doc:"Latitude of the place, WGS 84 degrees" example:"45.8814"`
	Longitude   float64  `json:"longitude" doc:"Longitude of the place, WGS 84 degrees" example:"6.3256"`
	Position    string   `json:"position" enum:"own,postcode,area" doc:"Where the position comes from: own, a point of the place itself; postcode, the mean of the communes sharing a postal code with it (a few km off); area, its commune's point or its district's mean (tens of km off at worst)"`
	Approximate bool     `json:"approximate" doc:"True when the 5-digit postal code typed belongs to no place (a CEDEX code): the answer is a place of the nearest postal code, a neighbour rather than the place itself"`
}

// PlacesOutput is the places found, best first.
type PlacesOutput struct {
	Body struct {
		Places []PlaceView `json:"places" doc:"The places found, best first: by how exactly the name matches, then by population; for a postal code, by postal code then population"`
	}
}

func (d *Daemon) registerPlaces(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "search-places", Method: http.MethodGet, Path: "/places", Tags: []string{"Places"},
		Summary: "Find French communes by postal code or name",
		Description: "The place reference (PRODUCT §3): every commune of metropolitan France, Corsica and the overseas " +
			"departments, the municipal arrondissements of Paris, Lyon and Marseille and the former communes, with " +
			"postal codes, population and position. The map's search box and the profile form's postal code and " +
			"town use it (PRODUCT §2 \"Map\", \"Profile form\").",
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, d.searchPlaces)
}

func (d *Daemon) searchPlaces(ctx context.Context, in *PlacesInput) (*PlacesOutput, error) {
	ref, err := places.Default()
	if err != nil {
		return nil, err
	}
	out := &PlacesOutput{}
	out.Body.Places = []PlaceView{}
	for _, m := range ref.Search(in.Q, in.Limit) {
		out.Body.Places = append(out.Body.Places, placeView(m))
	}
	return out, nil
}

func placeView(m places.Match) PlaceView {
	p := m.Place
	v := PlaceView{
		Code: p.Code, Kind: p.Kind.String(), Name: p.Name, Department: p.Department,
		PostalCode: m.PostalCode, PostalCodes: p.PostalCodes, Population: p.Population,
		Latitude: p.Lat, Longitude: p.Lon, Position: p.Precision.String(), Approximate: m.Approximate,
	}
	if p.Parent != nil {
		v.Commune = p.Parent.Name
	}
	return v
}
