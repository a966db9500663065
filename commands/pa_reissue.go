package commands

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/pa"
	"primeur/core/store"
)

const paReissueLong = `Réémettre corrigée une facture mensuelle que la plateforme agréée du
producteur a rejetée (statut Rejetée 213, ou Irrecevable) : réputée non
émise, elle est remplacée par une facture corrigée sous un nouveau numéro,
composée des livraisons de la commande et des coordonnées actuelles du
producteur et du magasin, et annulée dans les comptes du producteur par un
avoir interne, jamais déposé. La tâche pa dépose ensuite la facture
corrigée. Comme « Émettre la facture corrigée » dans « À encaisser »
(docs/PRODUCT.md §16).`

const paCancelLong = `Annuler par un avoir interne, jamais déposé, une facture mensuelle que le
magasin a refusée sur sa plateforme agréée (statut Refusée 210), quel que
soit le délai des demandes d'avoir : l'avoir reprend ses lignes, moins ce
que les avoirs de ses réclamations ont déjà déduit. Comme « Annuler la
facture par un avoir » dans « À encaisser » (docs/PRODUCT.md §16).`

func (a *app) paReissueCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "reissue EMAIL NUMÉRO",
		Short: "Réémettre corrigée une facture rejetée par la plateforme agréée du producteur",
		Long:  paReissueLong,
		Args:  exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.onInvoice(cmd.Context(), args[0], args[1], func(tx *sqlx.Tx, producerID, id string) (string, error) {
				r, err := pa.Reissue(cmd.Context(), tx, producerID, id, a.clock().Now(), a.cfg.Location)
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("facture %s remplacée par la facture corrigée %s, annulée par l'avoir interne %s ; "+
					"la tâche pa déposera la facture corrigée", args[1], r.Invoice.Number, r.Credit.Number), nil
			})
		},
	}
}

func (a *app) paCancelCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "cancel EMAIL NUMÉRO",
		Short: "Annuler par un avoir interne une facture refusée par le magasin",
		Long:  paCancelLong,
		Args:  exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.onInvoice(cmd.Context(), args[0], args[1], func(tx *sqlx.Tx, producerID, id string) (string, error) {
				cn, err := pa.CancelRefused(cmd.Context(), tx, producerID, id, a.clock().Now(), a.cfg.Location)
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("facture %s annulée par l'avoir interne %s", args[1], cn.Number), nil
			})
		},
	}
}

// onInvoice runs fn in a transaction on the invoice numbered number of the
// producer email, and prints what it says.
func (a *app) onInvoice(ctx context.Context, email, number string, fn func(tx *sqlx.Tx, producerID, id string) (string, error)) error {
	db, err := a.openDB(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := accounts.ByEmail(ctx, db, email)
	if err != nil {
		return noAccount(email, err)
	}
	var ids []string
	if err := store.Select(ctx, db, &ids, `SELECT id FROM documents WHERE producer_id = ? AND number = ? AND kind = ?`,
		u.ID, number, billing.KindInvoice); err != nil {
		return err
	}
	if len(ids) == 0 {
		return fmt.Errorf("aucune facture mensuelle %s de %s (primeur pa status --producer %s les liste)", number, email, email)
	}
	var said string
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		said, err = fn(tx, u.ID, ids[0])
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintln(a.out, said)
	return nil
}
