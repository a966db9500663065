package commands

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/dayplan"
	"primeur/core/documents"
)

const deliveriesDayLong = `Afficher la journée de livraison d'un producteur (PRODUCT §16) à partir de ses
livraisons prévues ou effectuées de la date (les annulées exceptées) :

  - la cueillette : chaque produit, le total du jour, et la part de chaque
    magasin en dessous ;
  - le colisage : pour chaque magasin, dans l'ordre de la tournée, ses numéros
    de bon de livraison, son adresse et ses lignes ;
  - la tournée : les arrêts dans l'ordre choisi par le producteur dans
    l'application, sinon calculé depuis la ferme (plus proche voisin amélioré
    par 2-opt), chaque distance à vol d'oiseau multipliée par 1,3 pour approcher
    la route, le retour à la ferme compris, et le lien geo: de chaque arrêt.

Avec --json, la journée telle que l'API la donne (GET /api/deliveries/day/{date}).`

const deliveriesDayExample = `  primeur deliveries day --producer ferme@aravis.fr --date 2026-11-24
  primeur deliveries day --producer ferme@aravis.fr --date 2026-11-24 --json`

func (a *app) deliveriesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deliveries",
		Short: "Les livraisons d'un producteur",
	}
	cmd.AddCommand(a.deliveriesDayCommand())
	return cmd
}

func (a *app) deliveriesDayCommand() *cobra.Command {
	var producer, date string
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "day",
		Short:   "Afficher la journée de livraison d'un producteur : cueillette, colisage, tournée",
		Long:    deliveriesDayLong,
		Example: deliveriesDayExample,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(producer) == "" {
				return fmt.Errorf("--producer : l'email du producteur est obligatoire")
			}
			if strings.TrimSpace(date) == "" {
				return fmt.Errorf("--date : le jour de livraison est obligatoire, AAAA-MM-JJ (par exemple 2026-11-24)")
			}
			if _, ok := calendar.ParseDate(date); !ok {
				return fmt.Errorf("--date « %s » : une date AAAA-MM-JJ est attendue (par exemple 2026-11-24)", date)
			}
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			u, err := accounts.ByEmail(cmd.Context(), db, strings.TrimSpace(producer))
			if err != nil || !u.IsProducer() {
				return fmt.Errorf("--producer « %s » : aucun producteur n'a cet email", producer)
			}
			day, err := dayplan.Load(cmd.Context(), db, u.ID, date)
			if err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(day)
			}
			a.printDay(day)
			return nil
		},
	}
	cmd.Flags().StringVar(&producer, "producer", "", "le producteur (son email de connexion, obligatoire)")
	cmd.Flags().StringVar(&date, "date", "", "le jour de livraison, AAAA-MM-JJ (obligatoire)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire la journée en JSON")
	return cmd
}

// printDay writes a day as three sections of text.
func (a *app) printDay(day dayplan.Day) {
	fmt.Fprintf(a.out, "Journée de livraison du %s — %s\n", documents.Day(day.Date), day.Producer)
	if len(day.Round.Stops) == 0 {
		fmt.Fprintln(a.out, "Aucune livraison ce jour-là.")
		return
	}
	fmt.Fprintln(a.out, "\nCUEILLETTE")
	var pick [][2]string
	for _, p := range day.Pick {
		pick = append(pick, [2]string{"  " + p.Name, documents.DayQuantity(p.Total, p.Unit)})
		for _, s := range p.Shops {
			pick = append(pick, [2]string{"      " + s.Shop, documents.DayQuantity(s.Quantity, p.Unit)})
		}
	}
	a.printColumns(pick)

	fmt.Fprintln(a.out, "\nCOLISAGE")
	for i, p := range day.Packing {
		numbers := make([]string, len(p.Notes))
		for k, n := range p.Notes {
			numbers[k] = n.Number
		}
		fmt.Fprintf(a.out, "  %d. %s — %s — %s\n", i+1, p.Shop, strings.Join(numbers, ", "), orNone(strings.Join(p.Address, ", ")))
		for _, t := range [][2]string{{"horaires", p.Hours}, {"consignes", p.Instructions}} {
			if t[1] != "" {
				fmt.Fprintf(a.out, "     %s : %s\n", t[0], strings.Join(strings.Fields(t[1]), " "))
			}
		}
		var lines [][2]string
		for _, l := range p.Lines {
			lines = append(lines, [2]string{"       " + l.Name, documents.DayQuantity(l.Quantity, l.Unit)})
		}
		a.printColumns(lines)
	}

	r := day.Round
	fmt.Fprintf(a.out, "\nTOURNÉE : %d arrêts, %s (à vol d'oiseau × %s, retour à la ferme compris)",
		len(r.Stops), documents.Km(r.TotalKm), strings.Replace(fmt.Sprint(r.RoadFactor), ".", ",", 1))
	if r.Manual {
		fmt.Fprint(a.out, ", dans l'ordre choisi par le producteur")
	}
	fmt.Fprintf(a.out, "\n  départ : %s\n", orNone(strings.Join(r.Farm.Address, ", ")))
	for i, s := range r.Stops {
		leg := "distance inconnue (pas de position)"
		if s.LegKm != nil {
			leg = documents.Km(*s.LegKm)
		}
		fmt.Fprintf(a.out, "  %d. %s — %s — %s\n", i+1, s.Shop, orNone(strings.Join(s.Address, ", ")), leg)
		if s.Hours != "" {
			fmt.Fprintf(a.out, "     horaires : %s\n", strings.Join(strings.Fields(s.Hours), " "))
		}
		if s.MapURL != "" {
			fmt.Fprintf(a.out, "     %s\n", s.MapURL)
		}
	}
	if r.ReturnKm != nil {
		fmt.Fprintf(a.out, "  retour à la ferme — %s\n", documents.Km(*r.ReturnKm))
	}
}

// printColumns writes rows of a text, left-aligned, and a quantity,
// right-aligned, in two columns.
func (a *app) printColumns(rows [][2]string) {
	left, right := 0, 0
	for _, r := range rows {
		left, right = max(left, utf8.RuneCountInString(r[0])), max(right, utf8.RuneCountInString(r[1]))
	}
	for _, r := range rows {
		fmt.Fprintf(a.out, "%s%s  %s%s\n", r[0], strings.Repeat(" ", left-utf8.RuneCountInString(r[0])),
			strings.Repeat(" ", right-utf8.RuneCountInString(r[1])), r[1])
	}
}

func orNone(address string) string {
	if address == "" {
		return "adresse non renseignée"
	}
	return address
}
