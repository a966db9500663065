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

const simulateSupplyLong = `Print a shop's stock projection and supply advice (PRODUCT §18), computed by the
same function as the web screen Réasso. and GET /api/supply: per product and day
the morning stock, the day's deliveries and the risk (! partial, !! empty), the
platform order proposed for the next day, and the products at risk.

The window starts on --start (default: the Monday of the current week) and
lasts --days days (1 to 31, default 5). --today sets the day the simulation
takes as today (default: today in the configured time zone). --json prints
exactly what GET /api/supply answers.`

func (a *app) simulateSupplyCommand() *cobra.Command {
	var email, start, today string
	var days int
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "supply",
		Short:   "Print a shop's stock projection and supply advice",
		Long:    simulateSupplyLong,
		Example: "  primeur simulate supply --distributor epicerie-du-lac@demo.primeur.fr --days 8",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			now := calendar.DateOf(a.clock().Now())
			if today != "" {
				d, ok := calendar.ParseDate(strings.TrimSpace(today))
				if !ok {
					return fmt.Errorf("--today: %s", supply.MsgBadStart)
				}
				now = d
			}
			w, err := supply.ParseWindow(start, strconv.Itoa(days), now)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			shop, err := accounts.ByEmail(ctx, db, email)
			if errors.Is(err, core.ErrNotFound) {
				return fmt.Errorf("no account with the email %s", email)
			}
			if err != nil {
				return err
			}
			if !shop.IsDistributor() {
				return fmt.Errorf("%s is a producer; the supply projection is a shop's", email)
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
	cmd.Flags().StringVar(&email, "distributor", "", "email of the shop (required)")
	cmd.Flags().StringVar(&start, "start", "", "first day, YYYY-MM-DD (default: the Monday of the current week)")
	cmd.Flags().IntVar(&days, "days", supply.DefaultDays, "number of days, 1 to 31")
	cmd.Flags().StringVar(&today, "today", "", "the day taken as today, YYYY-MM-DD (default: today)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the projection as GET /api/supply answers it")
	_ = cmd.MarkFlagRequired("distributor")
	return cmd
}
