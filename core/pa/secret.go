package pa

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The client secrets of PA connections are stored encrypted (AES-256-GCM)
// with a key kept outside the database: the key file KeyFile in the data
// directory, mode 0600, one key a line, "<id> <64 hex digits>", the first
// line the current key. A secret sealed is "v1:<key id>:<base64 of nonce
// and ciphertext>", its additional data the producer's id, so that a sealed
// secret copied onto another producer's row does not open. Rotating
// (Keyring.Rotate, `primeur pa rotate-key`) adds a new first line; the
// secrets are then sealed again with it, and the old lines may go once
// none is sealed with them.

// KeyFile is the name of the key file in the data directory.
const KeyFile = "pa-keys"

// ErrNoKey: the key file is missing, or holds no key a secret was sealed
// with.
var ErrNoKey = errors.New("pa: the key of the PA secrets is missing")

// Keyring is the keys of the key file, the current first.
type Keyring struct {
	ids  []string
	keys map[string][]byte
}

// KeyPath is the key file's path in dataDir.
func KeyPath(dataDir string) string { return filepath.Join(dataDir, KeyFile) }

// LoadKeys reads the key file at path; a missing file is ErrNoKey.
func LoadKeys(path string) (*Keyring, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w (%s)", ErrNoKey, path)
	}
	if err != nil {
		return nil, fmt.Errorf("pa: keys: %w", err)
	}
	k := &Keyring{keys: map[string][]byte{}}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, h, ok := strings.Cut(line, " ")
		key, err := hex.DecodeString(strings.TrimSpace(h))
		if !ok || err != nil || len(key) != 32 || strings.Contains(id, ":") {
			return nil, fmt.Errorf("pa: keys: %s line %d: \"<id> <64 hex digits>\" expected", path, n)
		}
		if _, dup := k.keys[id]; dup {
			return nil, fmt.Errorf("pa: keys: %s line %d: key %s twice", path, n, id)
		}
		k.ids = append(k.ids, id)
		k.keys[id] = key
	}
	if len(k.ids) == 0 {
		return nil, fmt.Errorf("%w (%s holds none)", ErrNoKey, path)
	}
	return k, nil
}

// EnsureKeys reads the key file at path, making it with one new key when
// it does not exist.
func EnsureKeys(path string) (*Keyring, error) {
	k, err := LoadKeys(path)
	if !errors.Is(err, ErrNoKey) {
		return k, err
	}
	if _, statErr := os.Stat(path); statErr == nil {
		return nil, err // there, but holds no key: not overwritten
	}
	if err := writeKeys(path, nil); err != nil {
		return nil, err
	}
	return LoadKeys(path)
}

// Rotate adds a new current key at the head of the key file at path and
// returns the keyring read back; the older keys stay, to open what they
// sealed.
func Rotate(path string) (*Keyring, error) {
	old, err := LoadKeys(path)
	if err != nil {
		return nil, err
	}
	if err := writeKeys(path, old); err != nil {
		return nil, err
	}
	return LoadKeys(path)
}

// writeKeys writes the key file with a new first key, then old's, through
// a temporary file renamed over it (mode 0600).
func writeKeys(path string, old *Keyring) error {
	key := make([]byte, 32)
	idb := make([]byte, 4)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("pa: keys: %w", err)
	}
	if _, err := rand.Read(idb); err != nil {
		return fmt.Errorf("pa: keys: %w", err)
	}
	var b strings.Builder
	b.WriteString("# Primeur: the keys of the PA client secrets (docs/SECURITY.md). The first is the current one.\n")
	fmt.Fprintf(&b, "%s %s\n", hex.EncodeToString(idb), hex.EncodeToString(key))
	if old != nil {
		for _, id := range old.ids {
			fmt.Fprintf(&b, "%s %s\n", id, hex.EncodeToString(old.keys[id]))
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("pa: keys: %w", err)
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("pa: keys: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("pa: keys: %w", err)
	}
	return nil
}

// Current is the id of the key new secrets are sealed with.
func (k *Keyring) Current() string { return k.ids[0] }

func (k *Keyring) aead(id string) (cipher.AEAD, error) {
	key, ok := k.keys[id]
	if !ok {
		return nil, fmt.Errorf("%w: no key %q in the key file", ErrNoKey, id)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("pa: keys: %w", err)
	}
	return cipher.NewGCM(block)
}

// Seal encrypts secret for the producer owner with the current key.
func (k *Keyring) Seal(secret, owner string) (string, error) {
	id := k.Current()
	g, err := k.aead(id)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("pa: seal: %w", err)
	}
	out := g.Seal(nonce, nonce, []byte(secret), []byte(owner))
	return "v1:" + id + ":" + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a secret Seal sealed for owner.
func (k *Keyring) Open(sealed, owner string) (string, error) {
	parts := strings.SplitN(sealed, ":", 3)
	if len(parts) != 3 || parts[0] != "v1" {
		return "", errors.New("pa: open: not a sealed secret")
	}
	g, err := k.aead(parts[1])
	if err != nil {
		return "", err
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) < g.NonceSize() {
		return "", errors.New("pa: open: not a sealed secret")
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], []byte(owner))
	if err != nil {
		return "", fmt.Errorf("pa: open: %w", err)
	}
	return string(plain), nil
}

// SealedWith is the id of the key a sealed secret names.
func SealedWith(sealed string) string {
	parts := strings.SplitN(sealed, ":", 3)
	if len(parts) != 3 {
		return ""
	}
	return parts[1]
}

// WebhookToken is the bearer token the PA's webhook calls for owner carry
// (XP Z12-013 §5.6.4 leaves their authentication to a later publication):
// an HMAC-SHA256 of the owner's id under the current key, so that nothing
// more is stored and a rotation renews it.
func (k *Keyring) WebhookToken(owner string) string {
	return webhookToken(k.keys[k.Current()], owner)
}

// CheckWebhookToken says whether token is owner's under one of the keys
// (the current, or an older one not yet removed), compared in constant
// time.
func (k *Keyring) CheckWebhookToken(owner, token string) bool {
	ok := false
	for _, id := range k.ids {
		if hmac.Equal([]byte(webhookToken(k.keys[id], owner)), []byte(token)) {
			ok = true
		}
	}
	return ok
}

func webhookToken(key []byte, owner string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("primeur pa webhook\x00" + owner))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
