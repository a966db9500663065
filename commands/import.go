package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/planning"
	"primeur/core/store"
)

// Exit statuses of the import commands.
const (
	// exitPartial: the import ran, but some rows or cells were not applied
	// (products missing from the catalogue, needs under their commitments).
	exitPartial = 2
)

func (a *app) importCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import data from files",
	}
	cmd.AddCommand(a.importNeedsCommand())
	return cmd
}

func (a *app) importNeedsCommand() *cobra.Command {
	var email string
	var dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "needs FILE.xlsx",
		Short: "Import a shop's needs from an Excel file, as the planner's upload does",
		Long: "Import a shop's monthly needs from an .xlsx file, with the rules of the planner's upload\n" +
			"(POST /api/needs-loader): the first sheet whose header row has a product column (Produit,\n" +
			"Désignation…) followed by months (dates, janv. 2027, 01/2027…), one row per product. The whole file is applied in one transaction;\n" +
			"needs that would go under producers' commitments, or in a past month, are left as they are\n" +
			"and listed. Progress shows on standard error; the summary goes to standard output.\n\n" +
			"With --json, the summary is the JSON that POST /api/needs-loader answers (the schema\n" +
			"PlanningImportResult of the OpenAPI document: needs, productsFound, productsMissing,\n" +
			"dbErrors, dbSuccesses, event, changes, rounded, suggestions); with --dry-run, what would have\n" +
			"been written (the preview of POST /api/needs-loader/preview).\n\n" +
			"Exit status: 0 when every row and cell was applied; 2 when the file was applied except the\n" +
			"products missing from the catalogue or the refused cells it lists; 1 when nothing was written\n" +
			"(unreadable file, unknown shop, database error), and then nothing is printed on standard output.",
		Example: "  primeur import needs besoins-2027.xlsx --distributor epicerie@example.fr --dry-run",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			data, err := readImportFile(args[0])
			if err != nil {
				return err
			}
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			shop, err := a.shop(ctx, db, email)
			if err != nil {
				return err
			}
			bar := a.progressBar("month")
			res, err := planning.ImportXLSX(ctx, db, shop.ID, filepath.Base(args[0]), data, a.clock().Now(),
				planning.ImportOptions{DryRun: dryRun, Progress: bar.update})
			bar.done()
			if err != nil {
				return err
			}
			if asJSON {
				err = a.writeJSON(res)
			} else {
				a.printImport(filepath.Base(args[0]), shop, res, dryRun)
			}
			if err != nil {
				return err
			}
			if len(res.ProductsMissing) > 0 || len(res.DBErrors) > 0 {
				return exitError{code: exitPartial}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&email, "distributor", "", "email of the shop whose needs these are (required)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "apply the file in a transaction that is rolled back: report, write nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as POST /api/needs-loader answers it")
	_ = cmd.MarkFlagRequired("distributor")
	return cmd
}

// readImportFile reads an import file, refusing a wrong extension or an
// oversized file before reading it.
func readImportFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := planning.CheckImportFile(path, st.Size()); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, planning.MaxImportBytes+1))
	if err != nil {
		return nil, err
	}
	return data, planning.CheckImportFile(path, int64(len(data)))
}

// shop returns the distributor account with that email.
func (a *app) shop(ctx context.Context, q store.Q, email string) (accounts.User, error) {
	u, err := accounts.ByEmail(ctx, q, email)
	if errors.Is(err, core.ErrNotFound) {
		return u, fmt.Errorf("no account with email %s", email)
	}
	if err != nil {
		return u, err
	}
	if !u.IsDistributor() {
		return u, fmt.Errorf("%s is a producer, not a shop (distributor)", email)
	}
	return u, nil
}

func (a *app) printImport(name string, shop accounts.User, res planning.ImportResult, dryRun bool) {
	fmt.Fprintf(a.out, "%s for %s (%s)\n", name, shop.Name, shop.Email)
	fmt.Fprintf(a.out, "  products found:     %d\n", len(res.ProductsFound))
	if len(res.ProductsMissing) > 0 {
		fmt.Fprintf(a.out, "  products missing:   %d (%s)\n", len(res.ProductsMissing), strings.Join(res.ProductsMissing, ", "))
	}
	for _, sg := range res.Suggestions {
		fmt.Fprintf(a.out, "    %s → %s ?\n", sg.Name, sg.Product)
	}
	fmt.Fprintf(a.out, "  needs applied:      %d (%d created or changed)\n", res.DBSuccesses, len(res.Needs))
	for _, c := range res.Changes {
		from := "new"
		if c.From != nil {
			from = c.From.String()
		}
		fmt.Fprintf(a.out, "    %s %s %s: %s → %s\n", c.Cell, c.Product, c.Date[:7], from, c.To)
	}
	for _, r := range res.Rounded {
		fmt.Fprintf(a.out, "    %s %s: %s rounded to %s\n", r.Cell, r.Product, r.Read, r.Quantity)
	}
	a.printRefused(res.DBErrors)
	if dryRun {
		fmt.Fprintln(a.out, "dry run: nothing was written")
	}
}

func (a *app) printRefused(errs []planning.ImportError) {
	if len(errs) == 0 {
		return
	}
	fmt.Fprintf(a.out, "  needs not applied:  %d\n", len(errs))
	for _, e := range errs {
		cell := e.Cell
		if cell != "" {
			cell += " "
		}
		fmt.Fprintf(a.out, "    %s%s %s: %s asked, %s reserved — %s\n", cell, e.Product, e.Date[:7], e.Quantity, e.Reserved, e.Message)
	}
}

// progress reports an import's months: a bar redrawn in place on a
// terminal, one plain line per step otherwise (logs, pipes, tests).
type progress struct {
	w     io.Writer
	tty   bool
	unit  string
	drawn bool
}

func (a *app) progressBar(unit string) *progress {
	p := &progress{w: a.errOut, unit: unit}
	if f, ok := a.errOut.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

const barWidth = 30

func (p *progress) update(done, total int, month string) {
	if !p.tty {
		fmt.Fprintf(p.w, "%s %d/%d written (%s)\n", p.unit, done, total, month[:7])
		return
	}
	filled := barWidth * done / max(total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s (%s)", strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), done, total, p.unit, month[:7])
	p.drawn = true
}

func (p *progress) done() {
	if p.tty && p.drawn {
		fmt.Fprintln(p.w)
	}
}
