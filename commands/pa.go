package commands

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"primeur/core/accounts"
	"primeur/core/pa"
	"primeur/core/printable"
)

const paConnectLong = `Connecter un producteur à sa plateforme agréée (PA) : Primeur y déposera
ses factures, avoirs et factures complémentaires (Factur-X EN 16931, norme
AFNOR XP Z12-013) par la tâche pa, et en relèvera les statuts.

Le secret du client (OAuth2, « client credentials ») est lu sur la première
ligne de l'entrée standard, jamais sur la ligne de commande ; il est chiffré
dans la base avec la clé du fichier <data-dir>/pa-keys, créé au premier
besoin (voir docs/SECURITY.md : à sauvegarder, et à copier sur chaque
réplique). La connexion est d'abord testée (jeton, puis /v1/healthcheck) ;
un échec est dit en une phrase et rien n'est enregistré, sauf avec
--no-check.

Sont déposés les documents émis à partir de la connexion ; --since
AAAA-MM-JJ dépose aussi ceux émis depuis ce jour et pas encore déposés (par
exemple ceux de l'année en cours). Reconnecter un producteur remplace sa
connexion.`

const paStatusLong = `Lister les documents des producteurs connectés à leur plateforme agréée :
numéro, acheteur, identifiant du flux, statut (Transmise, Déposée, Rejetée,
Refusée, Encaissée…), motif du dernier rejet ou refus, ou dernière erreur de
dépôt. Avec --producer, ceux d'un producteur ; avec --json, un tableau avec
l'historique des statuts de chaque document.`

func (a *app) paCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pa",
		Short: "La plateforme agréée (facturation électronique) de chaque producteur",
	}
	cmd.AddCommand(a.paConnectCommand(), a.paStatusCommand(), a.paRotateKeyCommand(), a.paReissueCommand(), a.paCancelCommand())
	return cmd
}

func (a *app) paConnectCommand() *cobra.Command {
	var flowURL, tokenURL, clientID, directoryURL, since string
	var noCheck bool
	cmd := &cobra.Command{
		Use:   "connect EMAIL",
		Short: "Connecter un producteur à sa plateforme agréée (secret sur l'entrée standard)",
		Long:  paConnectLong,
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			now := a.clock().Now()
			from := now
			if since != "" {
				day, err := time.ParseInLocation(time.DateOnly, since, a.cfg.Location)
				if err != nil {
					return fmt.Errorf("--since « %s » : une date AAAA-MM-JJ est attendue", since)
				}
				if day.After(now) {
					return fmt.Errorf("--since « %s » : une date passée est attendue", since)
				}
				from = day
			}
			secret, err := a.readSecret()
			if err != nil {
				return err
			}
			conn := pa.Connection{FlowURL: flowURL, TokenURL: tokenURL, ClientID: clientID, Secret: secret,
				DirectoryURL: directoryURL, ConnectedAt: now, DepositFrom: from}
			if err := conn.Check(); err != nil {
				return err
			}
			db, u, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			if u.Type != accounts.Producer {
				return errors.New(pa.MsgNotProducer)
			}
			conn.ProducerID = u.ID
			if !noCheck {
				client, err := pa.New(conn.Config())
				if err == nil {
					err = client.Check(cmd.Context())
				}
				if err != nil {
					return fmt.Errorf("%s Rien n'a été enregistré (--no-check pour enregistrer sans tester)", pa.French(err))
				}
			}
			path := pa.KeyPath(a.cfg.DataDir)
			_, statErr := os.Stat(path)
			keys, err := pa.EnsureKeys(path)
			if err != nil {
				return fmt.Errorf("fichier des clés %s : %w", path, err)
			}
			if errors.Is(statErr, os.ErrNotExist) {
				fmt.Fprintf(a.errOut, "clé des secrets créée : %s (à sauvegarder, et à copier sur chaque réplique)\n", path)
			}
			if err := pa.Connect(cmd.Context(), db, keys, conn); err != nil {
				return err
			}
			fmt.Fprintf(a.out, "%s connecté à sa plateforme agréée (%s) ; seront déposés les documents émis depuis le %s\n",
				u.Email, printable.Line(conn.FlowURL), from.In(a.cfg.Location).Format("02/01/2006"))
			return nil
		},
	}
	cmd.Flags().StringVar(&flowURL, "flow-url", "", "adresse du service de flux de la PA, avant /v1 (https, obligatoire)")
	cmd.Flags().StringVar(&tokenURL, "token-url", "", "adresse du jeton OAuth2 de la PA (https, obligatoire)")
	cmd.Flags().StringVar(&clientID, "client-id", "", "identifiant du client OAuth2 (obligatoire)")
	cmd.Flags().StringVar(&directoryURL, "directory-url", "", "adresse du service d'annuaire de la PA, s'il en a un (https)")
	cmd.Flags().StringVar(&since, "since", "", "déposer aussi les documents émis depuis ce jour (AAAA-MM-JJ)")
	cmd.Flags().BoolVar(&noCheck, "no-check", false, "enregistrer sans tester la connexion")
	return cmd
}

// readSecret reads the client secret on the first line of standard input.
func (a *app) readSecret() (string, error) {
	line, err := bufio.NewReader(a.in).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("aucun secret sur l'entrée standard : donnez le secret du client sur sa première ligne")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (a *app) paStatusCommand() *cobra.Command {
	var producer string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Lister les documents déposés sur les plateformes agréées et leurs statuts",
		Long:  paStatusLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			id := ""
			if producer != "" {
				u, err := accounts.ByEmail(cmd.Context(), db, producer)
				if err != nil {
					return noAccount(producer, err)
				}
				id = u.ID
			}
			docs, err := pa.Documents(cmd.Context(), db, id)
			if err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(docs)
			}
			if len(docs) == 0 {
				fmt.Fprintln(a.out, "aucun document à déposer (aucun producteur connecté, ou rien d'émis depuis sa connexion)")
				return nil
			}
			w := tabwriter.NewWriter(a.out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "PRODUCTEUR\tDOCUMENT\tACHETEUR\tFLUX\tSTATUT\tMOTIF")
			for _, d := range docs {
				status, flow, why := d.Label, d.FlowID, ""
				if status == "" {
					status = "à déposer"
				}
				if flow == "" {
					flow = "—"
				}
				if n := len(d.History); n > 0 && d.History[n-1].Reason != "" {
					why = d.History[n-1].Reason
					if c := d.History[n-1].ReasonCode; c != "" {
						why = c + " : " + why
					}
				}
				if d.Error != "" && d.FlowID == "" {
					why = fmt.Sprintf("%d échec(s) : %s", d.Attempts, d.Error)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Producer, d.Number, printable.Line(d.Buyer), flow, status, printable.Line(why))
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&producer, "producer", "", "email du producteur dont lister les documents")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire un tableau JSON, avec l'historique des statuts")
	return cmd
}

func (a *app) paRotateKeyCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rotate-key",
		Short: "Mettre en service une nouvelle clé des secrets des plateformes agréées et rechiffrer chaque secret avec elle",
		Long: "Ajouter en tête de <data-dir>/pa-keys une nouvelle clé, puis rechiffrer avec elle le secret de chaque\n" +
			"connexion. Les anciennes lignes restent dans le fichier : retirez-les une fois la nouvelle clé copiée sur\n" +
			"chaque réplique (docs/SECURITY.md).",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			path := pa.KeyPath(a.cfg.DataDir)
			keys, err := pa.Rotate(path)
			if err != nil {
				if pa.IsNoKey(err) {
					return fmt.Errorf("aucune clé dans %s : primeur pa connect la crée au premier producteur connecté", path)
				}
				return err
			}
			n, err := pa.Reseal(cmd.Context(), db, keys)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "clé %s en service dans %s ; %d secret(s) rechiffré(s) ; les anciennes lignes peuvent être retirées une fois la clé copiée sur chaque réplique\n",
				keys.Current(), path, n)
			return nil
		},
	}
}
