package pa

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/store"

	"github.com/jmoiron/sqlx"
)

// Connection is a producer's connection to its PA (pa_connections), its
// secret open.
type Connection struct {
	ProducerID   string
	FlowURL      string
	TokenURL     string
	ClientID     string
	Secret       string
	DirectoryURL string
	ConnectedAt  time.Time
	// DepositFrom: the documents issued from then on are deposited.
	DepositFrom time.Time
	// PolledAfter is the PA's time up to which statuses were read ("" for
	// none yet).
	PolledAfter string
	// SecretErr is why the secret could not be opened (the key missing),
	// nil when it is open.
	SecretErr error
}

// Config is the client's configuration of the connection.
func (c Connection) Config() Config {
	return Config{FlowURL: c.FlowURL, TokenURL: c.TokenURL, ClientID: c.ClientID, ClientSecret: c.Secret}
}

// French messages of a connection refused.
const (
	MsgFlowURL      = "L'adresse du service de flux doit être une adresse https complète."
	MsgTokenURL     = "L'adresse du jeton doit être une adresse https complète."
	MsgDirectoryURL = "L'adresse de l'annuaire doit être une adresse https complète."
	MsgClientID     = "L'identifiant du client est requis (256 caractères au plus)."
	MsgSecret       = "Le secret du client est requis (4096 caractères au plus)."
	MsgNotProducer  = "Seul un producteur peut connecter sa plateforme agréée."
)

// Check validates a connection before it is stored, with the French
// messages above.
func (c Connection) Check() error {
	var v core.ValidationError
	if CheckURL("flow-url", c.FlowURL) != nil {
		v.Add("flowUrl", MsgFlowURL)
	}
	if CheckURL("token-url", c.TokenURL) != nil {
		v.Add("tokenUrl", MsgTokenURL)
	}
	if c.DirectoryURL != "" && CheckURL("directory-url", c.DirectoryURL) != nil {
		v.Add("directoryUrl", MsgDirectoryURL)
	}
	if id := strings.TrimSpace(c.ClientID); id == "" || len(id) > 256 {
		v.Add("clientId", MsgClientID)
	}
	if c.Secret == "" || len(c.Secret) > 4096 {
		v.Add("clientSecret", MsgSecret)
	}
	return v.Err()
}

// Connect stores a producer's connection, its secret sealed with keys'
// current key, replacing the one it had (whose statuses' position is
// kept).
func Connect(ctx context.Context, q store.Q, keys *Keyring, c Connection) error {
	if err := c.Check(); err != nil {
		return err
	}
	var kind string
	if err := store.Get(ctx, q, &kind, `SELECT type FROM users WHERE id = ?`, c.ProducerID); err != nil {
		return fmt.Errorf("pa: connect: %w", err)
	}
	if kind != "producer" {
		return core.Refuse(core.ErrConflict, MsgNotProducer)
	}
	sealed, err := keys.Seal(c.Secret, c.ProducerID)
	if err != nil {
		return err
	}
	_, err = store.Exec(ctx, q, `INSERT INTO pa_connections (producer_id, flow_url, token_url, client_id, client_secret, directory_url, connected_at, deposit_from)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (producer_id) DO UPDATE SET flow_url = excluded.flow_url, token_url = excluded.token_url,
			client_id = excluded.client_id, client_secret = excluded.client_secret, directory_url = excluded.directory_url,
			connected_at = excluded.connected_at, deposit_from = excluded.deposit_from`,
		c.ProducerID, strings.TrimSpace(c.FlowURL), strings.TrimSpace(c.TokenURL), strings.TrimSpace(c.ClientID), sealed,
		strings.TrimSpace(c.DirectoryURL), c.ConnectedAt.UnixMilli(), c.DepositFrom.UnixMilli())
	if err != nil {
		return fmt.Errorf("pa: connect: %w", err)
	}
	return nil
}

type connectionRow struct {
	ProducerID   string `db:"producer_id"`
	FlowURL      string `db:"flow_url"`
	TokenURL     string `db:"token_url"`
	ClientID     string `db:"client_id"`
	Secret       string `db:"client_secret"`
	DirectoryURL string `db:"directory_url"`
	ConnectedAt  int64  `db:"connected_at"`
	DepositFrom  int64  `db:"deposit_from"`
	PolledAfter  string `db:"polled_after"`
}

// Connections reads every connection, each secret opened with keys (nil:
// none opened, SecretErr says so).
func Connections(ctx context.Context, q store.Q, keys *Keyring) ([]Connection, error) {
	var rows []connectionRow
	if err := store.Select(ctx, q, &rows, `SELECT producer_id, flow_url, token_url, client_id, client_secret, directory_url,
		connected_at, deposit_from, polled_after FROM pa_connections ORDER BY producer_id`); err != nil {
		return nil, fmt.Errorf("pa: connections: %w", err)
	}
	out := make([]Connection, len(rows))
	for i, r := range rows {
		c := Connection{ProducerID: r.ProducerID, FlowURL: r.FlowURL, TokenURL: r.TokenURL, ClientID: r.ClientID,
			DirectoryURL: r.DirectoryURL, ConnectedAt: time.UnixMilli(r.ConnectedAt), DepositFrom: time.UnixMilli(r.DepositFrom),
			PolledAfter: r.PolledAfter}
		if keys == nil {
			c.SecretErr = ErrNoKey
		} else {
			c.Secret, c.SecretErr = keys.Open(r.Secret, r.ProducerID)
		}
		out[i] = c
	}
	return out, nil
}

// Reseal seals every secret again with keys' current key (after Rotate)
// and returns how many it resealed. A secret that does not open stops it.
func Reseal(ctx context.Context, db *store.DB, keys *Keyring) (int, error) {
	n := 0
	err := db.Tx(ctx, func(q *sqlx.Tx) error {
		n = 0
		var rows []connectionRow
		if err := store.Select(ctx, q, &rows, `SELECT producer_id, client_secret FROM pa_connections ORDER BY producer_id`+store.ForUpdate(q)); err != nil {
			return fmt.Errorf("pa: reseal: %w", err)
		}
		for _, r := range rows {
			if SealedWith(r.Secret) == keys.Current() {
				continue
			}
			plain, err := keys.Open(r.Secret, r.ProducerID)
			if err != nil {
				return fmt.Errorf("pa: reseal %s: %w", r.ProducerID, err)
			}
			sealed, err := keys.Seal(plain, r.ProducerID)
			if err != nil {
				return err
			}
			if _, err := store.Exec(ctx, q, `UPDATE pa_connections SET client_secret = ? WHERE producer_id = ?`, sealed, r.ProducerID); err != nil {
				return fmt.Errorf("pa: reseal: %w", err)
			}
			n++
		}
		return nil
	})
	return n, err
}

// Status is one status of a document's history.
type Status struct {
	Status     string    `json:"status"`
	Label      string    `json:"label"`
	ReasonCode string    `json:"reasonCode,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	At         time.Time `json:"at"`
}

// Document is a document of a connected producer and where its deposit
// stands.
type Document struct {
	ID       string `json:"id" db:"id"`
	Number   string `json:"number" db:"number"`
	Kind     string `json:"kind" db:"kind"`
	Producer string `json:"producer" db:"producer"`
	Buyer    string `json:"buyer" db:"buyer"`
	// FlowID is "" until deposited.
	FlowID string `json:"flowId" db:"flow_id"`
	// Status is the latest status's code ("" not deposited yet), Label
	// its French.
	Status   string   `json:"status" db:"status"`
	Label    string   `json:"label" db:"-"`
	Attempts int      `json:"attempts" db:"attempts"`
	Error    string   `json:"error,omitempty" db:"error"`
	History  []Status `json:"history" db:"-"`
}

// Documents lists the documents due for deposit of the connected
// producers (producerID's alone when not ""), with their flow id, status
// and history, by producer then issue.
func Documents(ctx context.Context, q store.Q, producerID string) ([]Document, error) {
	var docs []Document
	if err := store.Select(ctx, q, &docs, `SELECT d.id, d.number, d.kind, u.email AS producer, b.name AS buyer,
		COALESCE(p.flow_id, '') AS flow_id, COALESCE(p.status, '') AS status, COALESCE(p.attempts, 0) AS attempts, COALESCE(p.error, '') AS error
		FROM documents d JOIN pa_connections c ON c.producer_id = d.producer_id
		JOIN users u ON u.id = d.producer_id JOIN users b ON b.id = d.distributor_id
		LEFT JOIN pa_deposits p ON p.document_id = d.id
		WHERE (d.issued_at >= c.deposit_from OR p.document_id IS NOT NULL) AND NOT d.internal AND (? = '' OR d.producer_id = ?)
		ORDER BY u.email, d.issued_at, d.number`, producerID, producerID); err != nil {
		return nil, fmt.Errorf("pa: documents: %w", err)
	}
	var hist []struct {
		DocumentID string `db:"document_id"`
		Status     string `db:"status"`
		ReasonCode string `db:"reason_code"`
		Reason     string `db:"reason"`
		At         int64  `db:"at"`
	}
	if err := store.Select(ctx, q, &hist, `SELECT s.document_id, s.status, s.reason_code, s.reason, s.at FROM pa_statuses s
		JOIN documents d ON d.id = s.document_id WHERE (? = '' OR d.producer_id = ?) ORDER BY s.at, s.recorded_at, s.source`,
		producerID, producerID); err != nil {
		return nil, fmt.Errorf("pa: statuses: %w", err)
	}
	byID := map[string]int{}
	for i := range docs {
		byID[docs[i].ID] = i
		docs[i].Label = ""
		if docs[i].Status != "" {
			docs[i].Label = StatusLabel(docs[i].Status)
		}
		docs[i].History = []Status{}
	}
	for _, h := range hist {
		if i, ok := byID[h.DocumentID]; ok {
			docs[i].History = append(docs[i].History, Status{Status: h.Status, Label: StatusLabel(h.Status),
				ReasonCode: h.ReasonCode, Reason: h.Reason, At: time.UnixMilli(h.At)})
		}
	}
	return docs, nil
}

// IsNoKey says the error is a missing key.
func IsNoKey(err error) bool { return errors.Is(err, ErrNoKey) }
