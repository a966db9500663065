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

const invoicesExportLong = `Write a month's invoices, credit notes and complementary invoices for the
producer's approved e-invoicing platform and its accountant: each document as
its Factur-X PDF (PDF/A-3b with its factur-x.xml, profile EN 16931) and its CII
XML beside it, and the month's sales journal (journal-ventes-YYYY-MM.csv: one
line per document and VAT rate, with its date, number, type, the invoice a
credit note corrects, the client and its SIREN, HT, TVA, TTC and due date; ";"
between columns, decimal comma, UTF-8).

--month is the month of the deliveries billed: 2026-11 exports the invoices
of November's deliveries (issued on 1 December) and the documents that
correct them. Without --producer, every producer's documents, each producer
in a folder of its own (numbers restart with each producer). The directory is
created; files already there with the same names are replaced.`

const invoicesExportExample = `  primeur invoices export --month 2026-11 --producer ferme@aravis.fr --out ./factures-2026-11
  primeur invoices export --month 2026-11 --out /srv/exports/2026-11`

func (a *app) invoicesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "invoices",
		Short: "Export the issued invoices and credit notes (Factur-X, sales journal)",
	}
	cmd.AddCommand(a.invoicesExportCommand())
	return cmd
}

func (a *app) invoicesExportCommand() *cobra.Command {
	var month, producer, out string
	cmd := &cobra.Command{
		Use:     "export",
		Short:   "Write a month's Factur-X PDFs, their XML and the sales journal into a directory",
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
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			producerID := ""
			if producer != "" {
				u, err := accounts.ByEmail(cmd.Context(), db, strings.TrimSpace(producer))
				if err != nil || !u.IsProducer() {
					return fmt.Errorf("--producer %q: no producer with this email", producer)
				}
				producerID = u.ID
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			s, err := accounting.Export(cmd.Context(), db, producerID, m.First().String(), func(name string, data []byte) error {
				path := filepath.Join(out, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return err
				}
				return os.WriteFile(path, data, 0o644)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "%s : %d facture(s), %d avoir(s) ou facture(s) complémentaire(s), %d fichier(s) écrits dans %s\n",
				strings.TrimSuffix(m.First().String(), "-01"), s.Invoices, s.Credits, s.Files, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&month, "month", "", "the month of the deliveries billed, YYYY-MM (required)")
	cmd.Flags().StringVar(&producer, "producer", "", "only this producer's documents (its login email)")
	cmd.Flags().StringVar(&out, "out", "", "the directory to write into (required)")
	return cmd
}
