package notify

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/store"
)

// Unsubscribe links (RFC 8058 and the link of every digest) turn kinds
// off without logging in: the token names the person, the organisation
// and the kinds ("person/org:kinds"; a token of before teams,
// "org:kinds", names the organisation's founder, of the same id), signed
// with HMAC-SHA-256 under a key made once in the database (secrets), so
// that every replica signs and checks alike, and a token cannot be made
// for another user or kind.

const secretName = "unsubscribe"

// MsgUnsubscribeInvalid refuses a token that is not one of ours.
const MsgUnsubscribeInvalid = "Ce lien de désabonnement n'est pas valable."

// key returns the signing key, making it on first use.
func key(ctx context.Context, q store.Q, now time.Time) ([]byte, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("notify: key: %w", err)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO NOTHING`, secretName, hex.EncodeToString(raw), now.UnixMilli()); err != nil {
		return nil, fmt.Errorf("notify: key: %w", err)
	}
	var value string
	if err := store.Get(ctx, q, &value, `SELECT value FROM secrets WHERE name = ?`, secretName); err != nil {
		return nil, fmt.Errorf("notify: key: %w", err)
	}
	return hex.DecodeString(value)
}

func sign(k []byte, payload string) string {
	m := hmac.New(sha256.New, k)
	m.Write([]byte("unsubscribe\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// UnsubscribeToken is the token that turns kinds off for a person in an
// organisation.
func UnsubscribeToken(ctx context.Context, q store.Q, personID, orgID string, kinds []string, now time.Time) (string, error) {
	k, err := key(ctx, q, now)
	if err != nil {
		return "", err
	}
	payload := personID + "/" + orgID + ":" + strings.Join(kinds, ",")
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + sign(k, payload), nil
}

// Unsubscribe checks token and turns its kinds off (None) for its person
// in its organisation.
// It returns the labels of the kinds turned off.
func Unsubscribe(ctx context.Context, q store.Q, token string) ([]string, error) {
	enc, sig, ok := strings.Cut(token, ".")
	payload, err := base64.RawURLEncoding.DecodeString(enc)
	if !ok || err != nil || len(token) > 1024 {
		return nil, core.Invalid("token", MsgUnsubscribeInvalid)
	}
	// Read, not made: without a key no token was ever signed, and a
	// refusal changes nothing.
	var value string
	err = store.Get(ctx, q, &value, `SELECT value FROM secrets WHERE name = ?`, secretName)
	if store.IsNotFound(err) {
		return nil, core.Invalid("token", MsgUnsubscribeInvalid)
	}
	if err != nil {
		return nil, fmt.Errorf("notify: key: %w", err)
	}
	k, err := hex.DecodeString(value)
	if err != nil {
		return nil, fmt.Errorf("notify: key: %w", err)
	}
	if !hmac.Equal([]byte(sig), []byte(sign(k, string(payload)))) {
		return nil, core.Invalid("token", MsgUnsubscribeInvalid)
	}
	who, list, _ := strings.Cut(string(payload), ":")
	personID, orgID, ok := strings.Cut(who, "/")
	if !ok {
		orgID = personID // before teams: the organisation's founder
	}
	var labels []string
	for _, kind := range strings.Split(list, ",") {
		if _, ok := kindOf(kind); !ok {
			continue
		}
		if _, err := store.Exec(ctx, q, `INSERT INTO member_prefs (person_id, org_id, kind, mode)
			SELECT person_id, org_id, ?, ? FROM members WHERE person_id = ? AND org_id = ?
			ON CONFLICT (person_id, org_id, kind) DO UPDATE SET mode = excluded.mode`, kind, None, personID, orgID); err != nil {
			return nil, fmt.Errorf("notify: unsubscribe: %w", err)
		}
		labels = append(labels, Label(kind))
	}
	if len(labels) == 0 {
		return nil, core.Invalid("token", MsgUnsubscribeInvalid)
	}
	return labels, nil
}
