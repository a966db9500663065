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

const invoicesExportLong = `Écrire un mois civil des comptes d'un producteur ou d'un magasin, pour sa
plateforme agréée de facturation électronique et son comptable :

  - le FEC du mois (fichier des écritures comptables, art. A47 A-1 du Livre des
    procédures fiscales : les 18 champs, séparés par des tabulations, en ISO
    8859-15, dates AAAAMMJJ, virgule décimale), nommé SIRENFECAAAAMMJJ.txt :
    pour un producteur, son journal des ventes (VT : clients 411 avec le
    magasin en compte auxiliaire, ventes 701, TVA collectée 44571, escomptes
    accordés 665) et les paiements reçus (BQ sur 512, CA sur 530 pour les
    espèces) ; pour un magasin (--distributor), son journal des achats (AC :
    achats 607, TVA déductible 44566, fournisseurs 401) et les paiements faits ;
    sur les comptes que l'utilisateur a choisis dans l'application, lettrés là
    où paiements et avoirs soldent une facture au centime ;
  - chaque facture, avoir et facture complémentaire datés du mois, en PDF
    Factur-X (PDF/A-3b avec son factur-x.xml, profil EN 16931), et son XML CII
    à côté (pour un magasin, dans un dossier par producteur) ;
  - le registre de ces documents (journal-ventes-AAAA-MM.csv, ou
    journal-achats-AAAA-MM.csv pour un magasin : une ligne par document avec sa
    date, son numéro, son type, la facture corrigée, le partenaire et son SIREN,
    HT, TVA, TTC et l'échéance ; « ; » entre les colonnes, virgule décimale,
    UTF-8).

--month est un mois civil : un document est dans le mois de sa date d'émission,
un paiement dans le mois où il a été payé, quel que soit le mois des livraisons
qu'ils concernent. Sans --producer ni --distributor, les comptes de chaque
producteur, chacun dans son dossier. Le dossier est créé ; les fichiers déjà
présents sous les mêmes noms sont remplacés.`

const invoicesExportExample = `  primeur invoices export --month 2026-11 --producer ferme@aravis.fr --out ./compta-2026-11
  primeur invoices export --month 2026-11 --distributor epicerie@lac.fr --out ./achats-2026-11
  primeur invoices export --month 2026-11 --out /srv/exports/2026-11`

func (a *app) invoicesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "invoices",
		Short: "Exporter les comptes d'un mois : FEC, documents Factur-X, registre",
	}
	cmd.AddCommand(a.invoicesExportCommand())
	return cmd
}

func (a *app) invoicesExportCommand() *cobra.Command {
	var month, producer, shop, out string
	cmd := &cobra.Command{
		Use:     "export",
		Short:   "Écrire le FEC d'un mois, les PDF Factur-X, leur XML et le registre dans un dossier",
		Long:    invoicesExportLong,
		Example: invoicesExportExample,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, ok := calendar.ParseMonth(month)
			if !ok {
				return fmt.Errorf("--month « %s » : un mois AAAA-MM est attendu (par exemple 2026-11)", month)
			}
			if out == "" {
				return fmt.Errorf("--out : le dossier où écrire est obligatoire")
			}
			if producer != "" && shop != "" {
				return fmt.Errorf("--producer et --distributor : les comptes d'un seul utilisateur à la fois")
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
					return fmt.Errorf("--producer « %s » : aucun producteur n'a cet email", producer)
				}
				userID = u.ID
			case shop != "":
				u, err := accounts.ByEmail(cmd.Context(), db, strings.TrimSpace(shop))
				if err != nil || !u.IsDistributor() {
					return fmt.Errorf("--distributor « %s » : aucun magasin n'a cet email", shop)
				}
				side, userID = accounting.Buyer, u.ID
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("--out « %s » : %s", out, french(err))
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
	cmd.Flags().StringVar(&month, "month", "", "le mois civil, AAAA-MM (obligatoire) : les documents par leur date d'émission, les paiements par leur jour")
	cmd.Flags().StringVar(&producer, "producer", "", "seulement les comptes de ce producteur, ses ventes (son email de connexion)")
	cmd.Flags().StringVar(&shop, "distributor", "", "seulement les comptes de ce magasin, ses achats (son email de connexion)")
	cmd.Flags().StringVar(&out, "out", "", "le dossier où écrire (obligatoire)")
	return cmd
}
