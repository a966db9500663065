package dayplan_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var ctx = context.Background()

const day = "2026-11-24"

// world is the Ferme des Aravis (La Clusaz) delivering, on day, the
// Épicerie du Lac (Annecy), a shop in Thônes, a shop in Bonneville placed
// by its profile's coordinates and a shop without address; a cancelled
// delivery, a delivery of another day and another producer's delivery of
// the day, none of which is its day.
type world struct {
	w                                    *tradetest.World
	thones, bonneville, nowhere, dropped accounts.User
	farm2                                accounts.User
}

func seed(t *testing.T, db *store.DB) world {
	w := tradetest.New(t, db)
	x := world{w: w}
	x.thones = w.User(accounts.User{Type: accounts.Distributor, Email: "biocoop@thones.fr", Name: "Biocoop Thônes",
		AddressLine1: "2 place Avet", AddressLine2: "74230 Thônes", Tel: "0450111111"})
	x.bonneville = w.User(accounts.User{Type: accounts.Distributor, Email: "halle@bonneville.fr", Name: "Halle de Bonneville",
		AddressLine1: "Place de l'Hôtel de Ville", AddressLine2: "74130 Bonneville", Latitude: "46.0780", Longitude: "6.4010"})
	x.nowhere = w.User(accounts.User{Type: accounts.Distributor, Email: "cave@nulle.part", Name: "Cave sans adresse"})
	x.dropped = w.User(accounts.User{Type: accounts.Distributor, Email: "annule@magasin.fr", Name: "Magasin annulé",
		AddressLine1: "74000 Annecy"})
	x.farm2 = w.User(accounts.User{Type: accounts.Producer, Email: "autre@ferme.fr", Name: "Autre ferme",
		AddressLine1: "74130 Bonneville"})
	farm := w.Farm.ID
	// The done (locked) delivery first: the world plays each delivery at
	// its time, and a later lock would lock the planned ones of the day.
	w.Deliver(farm, x.bonneville.ID, day, orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 250}, tradetest.L{Product: "pomme", Price: 200, Expected: 1000})
	w.Deliver(farm, w.Shop.ID, day, orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
	w.Deliver(farm, x.thones.ID, day, orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 500, Sent: tradetest.Dec(450)},
		tradetest.L{Product: "carotte", Price: 120, Expected: 300},
		tradetest.L{Product: "pomme", Price: 200, Expected: 800, Sent: tradetest.Dec(0)})
	w.Deliver(farm, x.nowhere.ID, day, orders.Planned, tradetest.L{Product: "laitue", Price: 90, Expected: 600})
	w.Deliver(farm, x.dropped.ID, day, orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 9900})
	w.Deliver(farm, w.Shop.ID, "2026-11-25", orders.Planned, tradetest.L{Product: "poireau", Price: 150, Expected: 700})
	w.Deliver(x.farm2.ID, w.Shop.ID, day, orders.Planned, tradetest.L{Product: "oignon", Price: 150, Expected: 700})
	return x
}

// pick writes the pick sheet as text: "Tomate 17 kg = Biocoop Thônes 4.5 + …".
func pick(d dayplan.Day) []string {
	out := []string{}
	for _, p := range d.Pick {
		var parts []string
		for _, s := range p.Shops {
			parts = append(parts, s.Shop+" "+s.Quantity.String())
		}
		out = append(out, fmt.Sprintf("%s %s %s = %s", p.Name, p.Total, p.Unit, strings.Join(parts, " + ")))
	}
	return out
}

// packing writes the packing sheets as text: "Épicerie du Lac BL-000001: Laitue 20, Tomate 10".
func packing(d dayplan.Day) []string {
	out := []string{}
	for _, p := range d.Packing {
		var notes, lines []string
		for _, n := range p.Notes {
			notes = append(notes, n.Number+"/"+n.Status)
		}
		for _, l := range p.Lines {
			lines = append(lines, l.Name+" "+l.Quantity.String())
		}
		out = append(out, p.Shop+" "+strings.Join(notes, ",")+": "+strings.Join(lines, ", "))
	}
	return out
}

func stops(d dayplan.Day) []string {
	out := []string{}
	for _, s := range d.Round.Stops {
		out = append(out, s.Shop)
	}
	return out
}

func TestLoad(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		x := seed(t, db)
		w := x.w
		tests := []struct {
			name     string
			producer string
			date     string
			pick     []string
			packing  []string
			stops    []string
			err      string
		}{
			{"the farm's day", w.Farm.ID, day,
				[]string{
					"Carotte 3 kg = Biocoop Thônes 3",
					"Laitue 26 un = Épicerie du Lac 20 + Cave sans adresse 6",
					"Pomme 10 kg = Halle de Bonneville 10",
					"Tomate 17 kg = Biocoop Thônes 4.5 + Épicerie du Lac 10 + Halle de Bonneville 2.5",
				},
				[]string{
					"Biocoop Thônes BL-000003/planned: Carotte 3, Tomate 4.5",
					"Épicerie du Lac BL-000002/planned: Laitue 20, Tomate 10",
					"Halle de Bonneville BL-000001/done: Pomme 10, Tomate 2.5",
					"Cave sans adresse BL-000004/planned: Laitue 6",
				},
				[]string{"Biocoop Thônes", "Épicerie du Lac", "Halle de Bonneville", "Cave sans adresse"}, ""},
			{"another day", w.Farm.ID, "2026-11-25",
				[]string{"Poireau 7 kg = Épicerie du Lac 7"},
				[]string{"Épicerie du Lac BL-000006/planned: Poireau 7"},
				[]string{"Épicerie du Lac"}, ""},
			{"a day without deliveries", w.Farm.ID, "2026-11-26", []string{}, []string{}, []string{}, ""},
			{"another producer's day", x.farm2.ID, day,
				[]string{"Oignon 7 kg = Épicerie du Lac 7"},
				[]string{"Épicerie du Lac BL-000001/planned: Oignon 7"},
				[]string{"Épicerie du Lac"}, ""},
			{"not a date", w.Farm.ID, "24/11/2026", nil, nil, nil, dayplan.MsgDate},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				d, err := dayplan.Load(ctx, db, tt.producer, tt.date)
				if tt.err != "" {
					var v *core.ValidationError
					if !errors.As(err, &v) || err.Error() != tt.err {
						t.Fatalf("err = %v, want the refusal %q", err, tt.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := pick(d); !reflect.DeepEqual(got, tt.pick) {
					t.Errorf("pick =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.pick, "\n"))
				}
				if got := packing(d); !reflect.DeepEqual(got, tt.packing) {
					t.Errorf("packing =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.packing, "\n"))
				}
				if got := stops(d); !reflect.DeepEqual(got, tt.stops) {
					t.Errorf("stops = %q, want %q", got, tt.stops)
				}
				if d.Round.Manual {
					t.Error("a computed round reads as manual")
				}
			})
		}

		d, err := dayplan.Load(ctx, db, w.Farm.ID, day)
		if err != nil {
			t.Fatal(err)
		}
		r := d.Round
		if r.Farm.Located != dayplan.LocatedTown || r.Farm.Latitude == nil {
			t.Errorf("farm located %q at %v, want by its town (74220 La Clusaz)", r.Farm.Located, r.Farm.Latitude)
		}
		want := []string{dayplan.LocatedTown, dayplan.LocatedTown, dayplan.LocatedProfile, dayplan.LocatedNone}
		sum := 0.0
		for i, s := range r.Stops {
			if s.Located != want[i] {
				t.Errorf("stop %s located %q, want %q", s.Shop, s.Located, want[i])
			}
			if (s.LegKm == nil) != (s.Located == dayplan.LocatedNone) {
				t.Errorf("stop %s: leg %v with position %q", s.Shop, s.LegKm, s.Located)
			}
			if s.LegKm != nil {
				sum += *s.LegKm
			}
		}
		if *r.Stops[2].Latitude != 46.078 || !strings.HasPrefix(r.Stops[2].MapURL, "geo:46.078000,6.401000?q=Place+de+l%27H%C3%B4tel") {
			t.Errorf("Bonneville at %v, %q: want its profile's coordinates", *r.Stops[2].Latitude, r.Stops[2].MapURL)
		}
		if r.Stops[3].MapURL != "" {
			t.Errorf("a shop without address nor position has the map link %q", r.Stops[3].MapURL)
		}
		// La Clusaz → Thônes → Annecy → Bonneville → La Clusaz: about 12 +
		// 21 + 30 + 26 km by road (× 1.3).
		if r.ReturnKm == nil || r.Complete || r.TotalKm < 60 || r.TotalKm > 120 || r.RoadFactor != 1.3 {
			t.Errorf("round: total %.1f km, return %v, complete %v, factor %v", r.TotalKm, r.ReturnKm, r.Complete, r.RoadFactor)
		}
		if diff := r.TotalKm - (sum + *r.ReturnKm); diff > 0.05 || diff < -0.05 {
			t.Errorf("total %.1f km is not the legs' sum %.1f km", r.TotalKm, sum+*r.ReturnKm)
		}
		if d.Packing[0].Tel != "0450111111" || strings.Join(d.Packing[0].Address, ", ") != "2 place Avet, 74230 Thônes" {
			t.Errorf("Thônes' sheet: tel %q, address %q", d.Packing[0].Tel, d.Packing[0].Address)
		}
	})
}

func setOrder(db *store.DB, producer, date string, shops []string) (dayplan.Day, error) {
	var d dayplan.Day
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		d, err = dayplan.SetOrder(ctx, tx, producer, date, shops, tradetest.At(2026, 11, 23, 18, 0))
		return err
	})
	return d, err
}

func TestSetOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		x := seed(t, db)
		w := x.w
		lac, thones, bonneville, nowhere := w.Shop.ID, x.thones.ID, x.bonneville.ID, x.nowhere.ID
		// Steps run in turn on one world: each step's order is what the
		// day reads afterwards, a refusal leaves the previous one.
		steps := []struct {
			name     string
			producer string
			date     string
			shops    []string
			err      string
			want     []string
			manual   bool
		}{
			{"the producer's order", w.Farm.ID, day, []string{nowhere, bonneville, lac, thones}, "",
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"a stop left out", w.Farm.ID, day, []string{bonneville, lac, thones}, dayplan.MsgStops,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"a stop twice", w.Farm.ID, day, []string{bonneville, lac, thones, lac}, dayplan.MsgStops,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"a shop not delivered that day", w.Farm.ID, day, []string{bonneville, lac, thones, x.dropped.ID}, dayplan.MsgStops,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"a stop more", w.Farm.ID, day, []string{nowhere, bonneville, lac, thones, x.dropped.ID}, dayplan.MsgStops,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"another producer's stops", x.farm2.ID, day, []string{nowhere, bonneville, lac, thones}, dayplan.MsgStops,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"not a date", w.Farm.ID, "2026-11-31", []string{nowhere, bonneville, lac, thones}, dayplan.MsgDate,
				[]string{"Cave sans adresse", "Halle de Bonneville", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"reordered again", w.Farm.ID, day, []string{bonneville, nowhere, lac, thones}, "",
				[]string{"Halle de Bonneville", "Cave sans adresse", "Épicerie du Lac", "Biocoop Thônes"}, true},
			{"back to the computed order", w.Farm.ID, day, []string{}, "",
				[]string{"Biocoop Thônes", "Épicerie du Lac", "Halle de Bonneville", "Cave sans adresse"}, false},
			{"and by hand once more", w.Farm.ID, day, []string{lac, thones, bonneville, nowhere}, "",
				[]string{"Épicerie du Lac", "Biocoop Thônes", "Halle de Bonneville", "Cave sans adresse"}, true},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				before := storetest.Snapshot(t, db)
				d, err := setOrder(db, st.producer, st.date, st.shops)
				if st.err != "" {
					var v *core.ValidationError
					if !errors.As(err, &v) || err.Error() != st.err {
						t.Fatalf("err = %v, want the refusal %q", err, st.err)
					}
					if after := storetest.Snapshot(t, db); after != before {
						t.Fatalf("a refused order changed the database:\n%s", storetest.Changes(before, after))
					}
				} else if err != nil {
					t.Fatal(err)
				} else if got := stops(d); !reflect.DeepEqual(got, st.want) {
					t.Fatalf("answered stops %q, want %q", got, st.want)
				}
				d, err = dayplan.Load(ctx, db, w.Farm.ID, day)
				if err != nil {
					t.Fatal(err)
				}
				if got := stops(d); !reflect.DeepEqual(got, st.want) || d.Round.Manual != st.manual {
					t.Fatalf("stops %q (manual %v), want %q (manual %v)", got, d.Round.Manual, st.want, st.manual)
				}
				if got := packing(d); !strings.HasPrefix(got[0], st.want[0]+" ") {
					t.Fatalf("packing sheets not in round order: %q", got)
				}
			})
		}

		// A delivery added later that day goes at the end; the next day
		// keeps its computed round.
		late := w.User(accounts.User{Type: accounts.Distributor, Email: "tard@magasin.fr", Name: "Arrivé tard",
			AddressLine1: "74220 La Clusaz"})
		w.Deliver(w.Farm.ID, late.ID, day, orders.Planned, tradetest.L{Product: "carotte", Price: 120, Expected: decimal.FromInt(2)})
		d, err := dayplan.Load(ctx, db, w.Farm.ID, day)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"Épicerie du Lac", "Biocoop Thônes", "Halle de Bonneville", "Cave sans adresse", "Arrivé tard"}
		if got := stops(d); !reflect.DeepEqual(got, want) {
			t.Fatalf("after a new delivery: stops %q, want %q", got, want)
		}
		if d, err = dayplan.Load(ctx, db, w.Farm.ID, "2026-11-25"); err != nil || d.Round.Manual {
			t.Fatalf("the next day: manual %v, err %v", d.Round.Manual, err)
		}
	})
}
