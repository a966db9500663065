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
		Short: "Importer des données depuis des fichiers",
	}
	cmd.AddCommand(a.importNeedsCommand())
	return cmd
}

func (a *app) importNeedsCommand() *cobra.Command {
	var email, sheet string
	var dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "needs FICHIER",
		Short: "Importer les besoins d'un magasin depuis un classeur (.xlsx, .ods) ou un .csv, comme le dépôt du planificateur",
		Long: "Importer les besoins mensuels d'un magasin depuis un classeur .xlsx (Excel), .ods (LibreOffice) ou\n" +
			"un fichier .csv, avec les règles du dépôt du planificateur (POST /api/needs-loader) : une ligne\n" +
			"d'en-tête avec une colonne de produits (Produit, Désignation…) suivie de mois (dates, janv. 2027,\n" +
			"01/2027…), une ligne par produit. La feuille lue est celle de --sheet, sinon la feuille active si\n" +
			"elle contient un tableau, sinon la seule qui en contient un (un tableau dont tous les mois sont\n" +
			"passés laisse la place à un autre) ; quand plusieurs peuvent convenir, rien n'est lu et la commande\n" +
			"les nomme. Le résumé nomme la feuille lue. Les .xls et .xlsm sont refusés avec la façon de les\n" +
			"enregistrer en .xlsx ou .ods. Tout le fichier est appliqué en une transaction ; les besoins qui\n" +
			"passeraient sous les engagements des producteurs, ou dans un mois passé, sont laissés tels quels\n" +
			"et listés. La progression s'affiche sur la sortie d'erreur ; le résumé va sur la sortie standard.\n\n" +
			"Avec --json, le résumé est le JSON que répond POST /api/needs-loader (le schéma\n" +
			"PlanningImportResult du document OpenAPI : needs, productsFound, productsMissing, dbErrors,\n" +
			"dbSuccesses, event, changes, rounded, suggestions, sheet, sheets) ; avec --dry-run, ce qui aurait\n" +
			"été écrit (l'aperçu de POST /api/needs-loader/preview).\n\n" +
			"Code de sortie : 0 quand chaque ligne et chaque case ont été appliquées ; 2 quand le fichier a été\n" +
			"appliqué sauf les produits absents du catalogue ou les cases refusées qu'il liste ; 1 quand rien\n" +
			"n'a été écrit (fichier illisible, magasin inconnu, erreur de la base), et rien n'est alors écrit\n" +
			"sur la sortie standard.",
		Example: "  primeur import needs besoins-2027.xlsx --distributor epicerie@example.fr --dry-run\n" +
			"  primeur import needs besoins.ods --distributor epicerie@example.fr --sheet 2027",
		Args: exactArgs(1),
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
			bar := a.progressBar("mois")
			res, err := planning.ImportXLSX(ctx, db, shop.ID, filepath.Base(args[0]), data, a.clock().Now(),
				planning.ImportOptions{DryRun: dryRun, Progress: bar.update, Sheet: sheet})
			bar.done()
			if err != nil {
				return sheetError(err, sheet)
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
	cmd.Flags().StringVar(&email, "distributor", "", "email du magasin dont ce sont les besoins (obligatoire)")
	cmd.Flags().StringVar(&sheet, "sheet", "", "la feuille à lire, par son nom (sinon la feuille active qui contient un tableau, ou la seule)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "appliquer le fichier dans une transaction annulée : tout dire, ne rien écrire")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le résumé comme le répond POST /api/needs-loader")
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

// sheetError says a refusal about the sheet the way the command is used:
// naming --sheet and its value when it was given, or how to choose one when
// several sheets could be meant. Any other error is returned as it is.
func sheetError(err error, sheet string) error {
	var ve *core.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != planning.ImportSheetField {
		return err
	}
	if sheet != "" {
		return flagsError(err, map[string]flagValue{planning.ImportSheetField: {"sheet", sheet}})
	}
	names, _ := ve.Fields[0].Value.([]string)
	if len(names) == 0 {
		return err
	}
	return fmt.Errorf("%s Indiquez-la avec --sheet, par exemple --sheet « %s ».", ve.Fields[0].Message, names[len(names)-1])
}

// shop returns the distributor account with that email.
func (a *app) shop(ctx context.Context, q store.Q, email string) (accounts.User, error) {
	u, err := accounts.ByEmail(ctx, q, email)
	if errors.Is(err, core.ErrNotFound) {
		return u, fmt.Errorf("--distributor « %s » : aucun compte n'a cet email", email)
	}
	if err != nil {
		return u, err
	}
	if !u.IsDistributor() {
		return u, fmt.Errorf("--distributor « %s » : ce compte est un producteur, pas un magasin", email)
	}
	return u, nil
}

func (a *app) printImport(name string, shop accounts.User, res planning.ImportResult, dryRun bool) {
	fmt.Fprintf(a.out, "%s pour %s (%s)\n", name, shop.Name, shop.Email)
	if !strings.EqualFold(filepath.Ext(name), ".csv") {
		fmt.Fprintf(a.out, "  feuille lue :           %s", res.Sheet)
		if len(res.Sheets) > 1 {
			fmt.Fprintf(a.out, " (feuilles avec un tableau : %s ; --sheet pour en lire une autre)", strings.Join(res.Sheets, ", "))
		}
		fmt.Fprintln(a.out)
	}
	fmt.Fprintf(a.out, "  produits trouvés :      %d\n", len(res.ProductsFound))
	if len(res.ProductsMissing) > 0 {
		fmt.Fprintf(a.out, "  produits absents :      %d (%s)\n", len(res.ProductsMissing), strings.Join(res.ProductsMissing, ", "))
	}
	for _, sg := range res.Suggestions {
		fmt.Fprintf(a.out, "    %s → %s ?\n", sg.Name, sg.Product)
	}
	fmt.Fprintf(a.out, "  besoins appliqués :     %d (%d créé(s) ou modifié(s))\n", res.DBSuccesses, len(res.Needs))
	for _, c := range res.Changes {
		from := "nouveau"
		if c.From != nil {
			from = c.From.String()
		}
		fmt.Fprintf(a.out, "    %s %s %s : %s → %s\n", c.Cell, c.Product, c.Date[:7], from, c.To)
	}
	for _, r := range res.Rounded {
		fmt.Fprintf(a.out, "    %s %s : %s arrondi à %s\n", r.Cell, r.Product, r.Read, r.Quantity)
	}
	a.printRefused(res.DBErrors)
	if dryRun {
		fmt.Fprintln(a.out, "à blanc : rien n'a été écrit")
	}
}

func (a *app) printRefused(errs []planning.ImportError) {
	if len(errs) == 0 {
		return
	}
	fmt.Fprintf(a.out, "  besoins non appliqués : %d\n", len(errs))
	for _, e := range errs {
		cell := e.Cell
		if cell != "" {
			cell += " "
		}
		fmt.Fprintf(a.out, "    %s%s %s : %s demandé, %s réservé — %s\n", cell, e.Product, e.Date[:7], e.Quantity, e.Reserved, e.Message)
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
		fmt.Fprintf(p.w, "%s %d/%d écrit (%s)\n", p.unit, done, total, month[:7])
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
