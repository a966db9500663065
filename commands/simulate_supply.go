package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"primeur/commands/supplyui"
	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/supply"
)

const simulateSupplyLong = `Écrire la projection de stock et les conseils d'approvisionnement d'un magasin
(PRODUCT §18), calculés par la même fonction que l'écran Réasso. et
GET /api/supply : par produit et par jour, le stock du matin, les livraisons du
jour et le risque (! partiel, !! vide), la commande plateforme proposée pour le
lendemain, et les produits à risque.

La fenêtre commence le --start (par défaut : le lundi de la semaine en cours) et
dure --days jours (1 à 31, 5 par défaut). --today fixe le jour que la simulation
prend pour aujourd'hui (par défaut : aujourd'hui dans le fuseau configuré).
--json écrit exactement ce que répond GET /api/supply.`

func (a *app) simulateSupplyCommand() *cobra.Command {
	var email, start, today string
	var days int
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "supply",
		Short:   "Écrire la projection de stock et les conseils d'approvisionnement d'un magasin",
		Long:    simulateSupplyLong,
		Example: "  primeur simulate supply --distributor epicerie-du-lac@demo.primeur.fr --days 8",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			now := calendar.DateOf(a.clock().Now())
			if today != "" {
				d, ok := calendar.ParseDate(strings.TrimSpace(today))
				if !ok {
					return fmt.Errorf("--today « %s » : une date AAAA-MM-JJ est attendue (par exemple 2026-11-30)", today)
				}
				now = d
			}
			w, err := supply.ParseWindow(start, strconv.Itoa(days), now)
			if err != nil {
				return flagsError(err, map[string]flagValue{"start": {"start", start}, "days": {"days", strconv.Itoa(days)}})
			}
			ctx := cmd.Context()
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			shop, err := accounts.ByEmail(ctx, db, email)
			if errors.Is(err, core.ErrNotFound) {
				return fmt.Errorf("--distributor « %s » : aucun compte n'a cet email", email)
			}
			if err != nil {
				return err
			}
			if !shop.IsDistributor() {
				return fmt.Errorf("--distributor « %s » : ce compte est un producteur ; la projection de stock est celle d'un magasin", email)
			}
			p, err := supply.Load(ctx, db, shop.ID, w, now)
			if err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(p)
			}
			return supplyui.WriteReport(a.out, shop.Name, p)
		},
	}
	cmd.Flags().StringVar(&email, "distributor", "", "email du magasin (obligatoire)")
	cmd.Flags().StringVar(&start, "start", "", "premier jour, AAAA-MM-JJ (par défaut : le lundi de la semaine en cours)")
	cmd.Flags().IntVar(&days, "days", supply.DefaultDays, "nombre de jours, de 1 à 31")
	cmd.Flags().StringVar(&today, "today", "", "le jour pris pour aujourd'hui, AAAA-MM-JJ (par défaut : aujourd'hui)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire la projection comme la répond GET /api/supply")
	_ = cmd.MarkFlagRequired("distributor")
	return cmd
}
