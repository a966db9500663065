package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"primeur/core/accounting"
	"primeur/core/accounts"
	"primeur/core/calendar"
)

const invoicesExportLong = `Write a calendar month of a producer's or a shop's books for its approved
e-invoicing platform and its accountant:

  - the FEC of the month (fichier des écritures comptables, art. A47 A-1 of
    the Livre des procédures fiscales: the 18 fields, tab-separated, ISO
    8859-15, dates AAAAMMJJ, decimal comma), named SIRENFECAAAAMMJJ.txt: for
    a producer, its sales journal (VT: customers 411 with the shop as
    auxiliary account, sales 701, VAT collected 44571, discounts given 665)
    and the payments it received (BQ on 512, CA on 530 for cash); for a
    shop (--distributor), its purchases journal (AC: purchases 607, VAT
    deductible 44566, suppliers 401) and the payments it made; on the
    accounts the user set in the application, lettered where payments and
    credit notes settle an invoice to the cent;
  - each invoice, credit note and complementary invoice dated in the month
    as its Factur-X PDF (PDF/A-3b with its factur-x.xml, profile EN 16931)
    and its CII XML beside it (for a shop, in a folder per producer);
  - the register of those documents (journal-ventes-YYYY-MM.csv, or
    journal-achats-YYYY-MM.csv for a shop: one line per document with its
    date, number, type, corrected invoice, partner and SIREN, HT, TVA, TTC
    and due date; ";" between columns, decimal comma, UTF-8).

--month is a calendar month: a document is in the month of its own date
of issue, a payment in the month it was paid, whatever month of deliveries
they concern. Without --producer or --distributor, every producer's books,
each producer in a folder of its own. The directory is created; files
already there with the same names are replaced.`

const invoicesExportExample = `  primeur invoices export --month 2026-11 --producer ferme@aravis.fr --out ./compta-2026-11
  primeur invoices export --month 2026-11 --distributor epicerie@lac.fr --out ./achats-2026-11
  primeur invoices export --month 2026-11 --out /srv/exports/2026-11`

func (a *app) invoicesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "invoices",
		Short: "Export a month's books: FEC, Factur-X documents, register",
	}
	cmd.AddCommand(a.invoicesExportCommand())
	return cmd
}

func (a *app) invoicesExportCommand() *cobra.Command {
	var month, producer, shop, out string
	cmd := &cobra.Command{
		Use:     "export",
		Short:   "Write a month's FEC, Factur-X PDFs, their XML and the register into a directory",
		Long:    invoicesExportLong,
		Example: invoicesExportExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, ok := calendar.ParseMonth(month)
			if !ok {
				return fmt.Errorf("--month %q: expected YYYY-MM", month)
			}
			if out == "" {
				return fmt.Errorf("--out: the directory to write into is required")
			}
			if producer != "" && shop != "" {
				return fmt.Errorf("--producer and --distributor: one user's books at a time")
			}
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			side, userID := accounting.Seller, ""
			switch {
			case producer != "":
				u, err := accounts.ByEmail(cmd.Context(), db, strings.TrimSpace(producer))
				if err != nil || !u.IsProducer() {
					return fmt.Errorf("--producer %q: no producer with this email", producer)
				}
				userID = u.ID
			case shop != "":
				u, err := accounts.ByEmail(cmd.Context(), db, strings.TrimSpace(shop))
				if err != nil || !u.IsDistributor() {
					return fmt.Errorf("--distributor %q: no shop with this email", shop)
				}
				side, userID = accounting.Buyer, u.ID
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			s, err := accounting.Export(cmd.Context(), db, side, userID, m, a.clock().Zone(), func(name string, data []byte) error {
				path := filepath.Join(out, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return err
				}
				return os.WriteFile(path, data, 0o644)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "%s : %d facture(s), %d avoir(s) ou facture(s) complémentaire(s), %d paiement(s), %d écriture(s), %d fichier(s) écrits dans %s\n",
				strings.TrimSuffix(m.First().String(), "-01"), s.Invoices, s.Credits, s.Payments, s.Entries, s.Files, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&month, "month", "", "the calendar month, YYYY-MM (required): documents by their date of issue, payments by their day")
	cmd.Flags().StringVar(&producer, "producer", "", "only this producer's books, its sales (its login email)")
	cmd.Flags().StringVar(&shop, "distributor", "", "only this shop's books, its purchases (its login email)")
	cmd.Flags().StringVar(&out, "out", "", "the directory to write into (required)")
	return cmd
}
