package commands

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"primeur/core/accounts"
	"primeur/core/mail"
	"primeur/core/teams"
)

// The organisations' teams (issue 41, PRODUCT §13 "Teams"): an
// organisation is named by its login email (the founder's, as `user list`
// shows it).
func (a *app) orgCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "org",
		Short: "Gérer les équipes des magasins et des fermes (membres, invitations)",
		Long: "Gérer les équipes. Une organisation (un magasin ou une ferme) est désignée par son\n" +
			"adresse email de connexion, celle que `primeur user list` affiche.",
	}
	cmd.AddCommand(a.orgMembersCommand(), a.orgInviteCommand())
	return cmd
}

// memberJSON is a member as `org members --json` writes them.
type memberJSON struct {
	PersonID string `json:"personId"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Role     string `json:"role"`
	Since    string `json:"since"`
}

// invitationJSON is a pending invitation as `org members --json` writes it.
type invitationJSON struct {
	Email     string `json:"email"`
	Role      string `json:"role"`
	ExpiresAt string `json:"expiresAt"`
}

func (a *app) orgMembersCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "members ORG",
		Short: "Lister les membres d'une organisation, leur rôle, et les invitations en attente",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, org, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			team, err := teams.Of(cmd.Context(), db, org.ID)
			if err != nil {
				return err
			}
			if asJSON {
				out := struct {
					Members     []memberJSON     `json:"members"`
					Invitations []invitationJSON `json:"invitations"`
				}{[]memberJSON{}, []invitationJSON{}}
				for _, m := range team.Members {
					out.Members = append(out.Members, memberJSON{m.PersonID, m.Name, m.Email, m.Role, time.UnixMilli(m.CreatedAt).UTC().Format(time.RFC3339)})
				}
				for _, i := range team.Invitations {
					out.Invitations = append(out.Invitations, invitationJSON{i.Email, i.Role, time.UnixMilli(i.ExpiresAt).UTC().Format(time.RFC3339)})
				}
				return a.writeJSON(out)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NOM\tEMAIL\tRÔLE\tDEPUIS")
			for _, m := range team.Members {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", m.Name, m.Email, accounts.RoleLabel(m.Role), a.clock().Stamp(time.UnixMilli(m.CreatedAt)))
			}
			for _, i := range team.Invitations {
				fmt.Fprintf(w, "(invitation)\t%s\t%s\texpire le %s\n", i.Email, accounts.RoleLabel(i.Role), a.clock().Stamp(time.UnixMilli(i.ExpiresAt)))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}

func (a *app) orgInviteCommand() *cobra.Command {
	var role string
	cmd := &cobra.Command{
		Use:     "invite ORG EMAIL",
		Short:   "Inviter une personne dans une organisation, avec un rôle (un email lui est envoyé)",
		Example: "  primeur org invite epicerie@example.fr marie@example.fr --role buyer",
		Long: "Inviter une personne : un email lui envoie un lien à usage unique, valable sept jours.\n" +
			"Rôles d'un magasin : owner (propriétaire), buyer (achats), receiver (réception), accountant (comptabilité).\n" +
			"Rôles d'une ferme : owner (propriétaire), sales (vente), delivery (livraison), accountant (comptabilité).",
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, org, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			now := a.clock().Now()
			var sent teams.Sent
			if err := db.Tx(cmd.Context(), func(tx *sqlx.Tx) error {
				sent, err = teams.Invite(cmd.Context(), tx, org, accounts.Person{}, args[1], role, now)
				return err
			}); err != nil {
				return err
			}
			if err := mail.New(a.cfg).Send(cmd.Context(), teams.Mail(sent, a.cfg.SiteURL(), now)); err != nil {
				return fmt.Errorf("invitation enregistrée, mais l'email n'est pas parti (%w) : relancez la commande pour en envoyer un nouveau", err)
			}
			fmt.Fprintf(a.out, "invitation envoyée à %s (%s) pour %s, valable jusqu'au %s\n",
				sent.Email, accounts.RoleLabel(role), org.Name, a.clock().Stamp(time.UnixMilli(sent.ExpiresAt)))
			return nil
		},
	}
	cmd.Flags().StringVar(&role, "role", "", "le rôle : owner, buyer, receiver, sales, delivery ou accountant (obligatoire)")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}
