// Package accounts holds users (producers and distributors), their profile
// rules, password hashing, sessions and login throttling.
package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
	"primeur/core/terms"
	"primeur/core/vat"
)

// User types.
const (
	Producer    = "producer"
	Distributor = "distributor"
)

// User is an account as stored.
type User struct {
	ID                  string `db:"id"`
	Type                string `db:"type"`
	Email               string `db:"email"`
	EmailKey            string `db:"email_key"`
	Name                string `db:"name"`
	PasswordHash        string `db:"password_hash"`
	Capital             string `db:"capital"`
	BIC                 string `db:"bic"`
	APE                 string `db:"ape"`
	IBAN                string `db:"iban"`
	SIRET               string `db:"siret"`
	Tel                 string `db:"tel"`
	TVAIntracom         string `db:"tvaintracom"`
	AddressLine1        string `db:"address_line1"`
	AddressLine2        string `db:"address_line2"`
	AddressLine3        string `db:"address_line3"`
	Latitude            string `db:"latitude"`
	Longitude           string `db:"longitude"`
	Certification       string `db:"certification"`
	Legal               string `db:"legal"`
	DeliveryDays        string `db:"delivery_days"`
	BillingAddressLine1 string `db:"billing_address_line1"`
	BillingAddressLine2 string `db:"billing_address_line2"`
	BillingAddressLine3 string `db:"billing_address_line3"`
	BillingMandateAt    *int64 `db:"billing_mandate_at"`
	// A producer's payment terms (core/terms), as stored.
	PaymentBasis        string `db:"payment_basis"`
	PaymentDays         int    `db:"payment_days"`
	PaymentDiscount     int64  `db:"payment_discount"`
	PaymentDiscountDays int    `db:"payment_discount_days"`
	// VATRegime is a producer's VAT regime (core/vat): vat.Normal,
	// vat.Franchise or vat.Flat; unused for a shop.
	VATRegime string `db:"vat_regime"`
	// CutoffOptOut is set when a producer turned off the reminder of the
	// 25th (open needs of next month).
	CutoffOptOut bool `db:"cutoff_optout"`
	// A shop's delivery instructions (where to unload, whom to ask) and
	// opening hours or delivery window, free text for its producers'
	// packing sheets and round; empty for a producer.
	DeliveryInstructions string `db:"delivery_instructions"`
	OpeningHours         string `db:"opening_hours"`
	// LatE6 and LonE6 are Latitude and Longitude in millionths of a
	// degree, nil when the account is not placed (Position): what the
	// map's box query reads. Insert, InsertAll and the profile update
	// compute them from the texts; a caller never sets them.
	LatE6 *int64 `db:"lat_e6"`
	LonE6 *int64 `db:"lon_e6"`
	// EmailConfirmedKey is the login email as confirmed (its EmailKey):
	// the address is confirmed while it equals it (confirm.go). Insert
	// counts a new account's address as confirmed when it is empty. (The
	// shops' accounting email and its confirmation, columns
	// email_accounting and accounting_confirmed, are no more: migrations
	// 72 and 74 made them accountant members, issue 41.)
	EmailConfirmedKey string `db:"email_confirmed"`
	CreatedAt         int64  `db:"created_at"`
	UpdatedAt         int64  `db:"updated_at"`
}

// IsProducer reports whether u is a producer.
func (u User) IsProducer() bool { return u.Type == Producer }

// IsDistributor reports whether u is a distributor (a shop).
func (u User) IsDistributor() bool { return u.Type == Distributor }

// Days returns the producer's delivery days, index 0 = Monday.
func (u User) Days() [7]bool {
	var d [7]bool
	for i := 0; i < len(d) && i < len(u.DeliveryDays); i++ {
		d[i] = u.DeliveryDays[i] == '1'
	}
	return d
}

// Terms returns the producer's payment terms.
func (u User) Terms() terms.Terms {
	if u.PaymentBasis == "" {
		return terms.Default()
	}
	return terms.Terms{Basis: u.PaymentBasis, Days: u.PaymentDays, Discount: u.PaymentDiscount, DiscountDays: u.PaymentDiscountDays}
}

func (u *User) setTerms(t terms.Terms) {
	u.PaymentBasis, u.PaymentDays, u.PaymentDiscount, u.PaymentDiscountDays = t.Basis, t.Days, t.Discount, t.DiscountDays
}

// HasDeliveryDays reports whether the producer chose at least one day.
func (u User) HasDeliveryDays() bool {
	return strings.Contains(u.DeliveryDays, "1")
}

func encodeDays(days []bool) string {
	var b strings.Builder
	for i := 0; i < 7; i++ {
		if i < len(days) && days[i] {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// EmailKey is the case-insensitive form under which emails are unique.
func EmailKey(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

const userColumns = `id, type, email, email_key, name, password_hash, capital, bic, ape, iban,
	siret, tel, tvaintracom, address_line1, address_line2, address_line3, latitude,
	longitude, lat_e6, lon_e6, certification, legal, delivery_days,
	billing_address_line1, billing_address_line2, billing_address_line3,
	billing_mandate_at, payment_basis, payment_days, payment_discount, payment_discount_days,
	vat_regime, cutoff_optout, delivery_instructions, opening_hours, email_confirmed, created_at, updated_at`

// userColumnList is userColumns as a list, in the same order.
var userColumnList = strings.Fields(strings.ReplaceAll(userColumns, ",", " "))

// fields are u's fields in userColumns' order, scanned by hand rather than
// by sqlx's reflection: the session check reads a user on every request.
// TestUserFieldsFollowTheColumns holds the two lists together.
func (u *User) fields() []any {
	return []any{&u.ID, &u.Type, &u.Email, &u.EmailKey, &u.Name, &u.PasswordHash, &u.Capital, &u.BIC, &u.APE, &u.IBAN,
		&u.SIRET, &u.Tel, &u.TVAIntracom, &u.AddressLine1, &u.AddressLine2, &u.AddressLine3, &u.Latitude,
		&u.Longitude, &u.LatE6, &u.LonE6, &u.Certification, &u.Legal, &u.DeliveryDays,
		&u.BillingAddressLine1, &u.BillingAddressLine2, &u.BillingAddressLine3,
		&u.BillingMandateAt, &u.PaymentBasis, &u.PaymentDays, &u.PaymentDiscount, &u.PaymentDiscountDays,
		&u.VATRegime, &u.CutoffOptOut, &u.DeliveryInstructions, &u.OpeningHours, &u.EmailConfirmedKey, &u.CreatedAt, &u.UpdatedAt}
}

// userColumnsOf is userColumns, each column prefixed with the table's
// alias and a dot.
func userColumnsOf(alias string) string {
	return alias + "." + strings.Join(userColumnList, ", "+alias+".")
}

// getUser reads the one user query selects (userColumns first, then
// extra's columns), or sql.ErrNoRows.
func getUser(ctx context.Context, q store.Q, query string, arg any, extra ...any) (User, error) {
	var u User
	err := q.QueryRowxContext(ctx, q.Rebind(query), arg).Scan(append(u.fields(), extra...)...)
	return u, err
}

// Register validates r and creates the account, for the admin command and
// tests; visitors go through SignUp. A producer's registration records its
// billing mandate (the platform issues invoices in its name). The password
// is hashed before anything is written.
func Register(ctx context.Context, db *store.DB, r Registration, now time.Time) (User, error) {
	if err := r.Validate(); err != nil {
		return User{}, err
	}
	u, err := r.user(ctx, now)
	if err != nil {
		return User{}, err
	}
	if err := Insert(ctx, db, u); err != nil {
		return User{}, err
	}
	return ByID(ctx, db, u.ID) // as stored: defaults filled
}

// SignUp is a visitor's registration from a client (its network address):
// r is validated, counted against the address's limit (perAddress per
// RegistrationWindow, MaxRegistrationsPerAddress when perAddress is not
// positive; past it a core.ErrThrottled refusal inside a *limit.Later),
// the password hashed through Hashing with no transaction open, then the
// account created and its first session opened in one short transaction.
// It returns the user, the session token and the link confirming the
// email, for the caller to send.
func SignUp(ctx context.Context, db *store.DB, r Registration, client string, perAddress int, now time.Time) (User, string, Confirmation, error) {
	if err := r.Validate(); err != nil {
		return User{}, "", Confirmation{}, err
	}
	a := registrationAttempt(client, perAddress)
	if err := a.begin(ctx, db, now); err != nil {
		return User{}, "", Confirmation{}, err
	}
	u, err := r.user(ctx, now)
	if err != nil {
		return User{}, "", Confirmation{}, errors.Join(err, a.giveBack(ctx, db))
	}
	var token string
	var confirm Confirmation
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := Insert(ctx, tx, u); err != nil {
			return err
		}
		// A visitor's address is confirmed by the link SignUp's caller
		// emails (confirm.go), not by being typed.
		if _, err := store.Exec(ctx, tx, `UPDATE users SET email_confirmed = '' WHERE id = ?`, u.ID); err != nil {
			return fmt.Errorf("accounts: sign up: %w", err)
		}
		if err := SyncFounder(ctx, tx, u.ID); err != nil {
			return err
		}
		u.EmailConfirmedKey = ""
		if confirm, err = newConfirmation(ctx, tx, u, ConfirmAccount, u.Email, now); err != nil {
			return err
		}
		token, err = NewSession(ctx, tx, u.ID, now)
		return err
	})
	if errors.Is(err, core.ErrBusy) {
		return User{}, "", Confirmation{}, errors.Join(err, a.giveBack(ctx, db))
	}
	if err != nil {
		return User{}, "", Confirmation{}, err
	}
	return u, token, confirm, nil
}

// user builds the account of a valid registration, its password hashed.
func (r Registration) user(ctx context.Context, now time.Time) (User, error) {
	hash, err := HashPassword(ctx, r.Password)
	if err != nil {
		return User{}, err
	}
	u := User{
		ID:           core.NewID(),
		Type:         Producer,
		Email:        strings.TrimSpace(r.Email),
		EmailKey:     EmailKey(r.Email),
		Name:         strings.TrimSpace(r.Name),
		PasswordHash: hash,
		DeliveryDays: "0000000",
		CreatedAt:    now.UnixMilli(),
		UpdatedAt:    now.UnixMilli(),
	}
	if r.Distributor {
		u.Type = Distributor
	} else {
		at := now.UnixMilli()
		u.BillingMandateAt = &at
		u.VATRegime = vat.Of("") // no VAT number yet: the flat-rate refund
	}
	return u, nil
}

// Insert stores a complete user row. Register is the way in for visitors;
// Insert serves it, the demo data and the admin command. Addresses made
// by them count as confirmed: EmailConfirmedKey defaults to the row's
// address (SignUp unconfirms a visitor's). The
// position columns follow Latitude and Longitude (Position). An address a
// way back holds for another account (credentials.go) is taken, as one
// another account has.
func Insert(ctx context.Context, q store.Q, u User) error {
	u.completeRow()
	if taken, err := emailTaken(ctx, q, u.Email, u.ID, time.UnixMilli(u.CreatedAt)); err != nil {
		return err
	} else if taken {
		return core.Refuse(core.ErrConflict, MsgEmailTaken)
	}
	query := `INSERT INTO users (` + userColumns + `) VALUES
		(:id, :type, :email, :email_key, :name, :password_hash, :capital, :bic, :ape, :iban,
		 :siret, :tel, :tvaintracom, :address_line1, :address_line2, :address_line3, :latitude,
		 :longitude, :lat_e6, :lon_e6, :certification, :legal, :delivery_days,
		 :billing_address_line1, :billing_address_line2, :billing_address_line3,
		 :billing_mandate_at, :payment_basis, :payment_days, :payment_discount, :payment_discount_days,
		 :vat_regime, :cutoff_optout, :delivery_instructions, :opening_hours, :email_confirmed, :created_at, :updated_at)`
	if _, err := store.NamedExec(ctx, q, query, u); err != nil {
		if store.IsUniqueViolation(err) {
			return core.Refuse(core.ErrConflict, MsgEmailTaken)
		}
		return fmt.Errorf("accounts: insert user: %w", err)
	}
	return insertFounder(ctx, q, u)
}

// completeRow fills what Insert and InsertAll derive: the default payment
// terms, the addresses counted as confirmed, the position columns.
func (u *User) completeRow() {
	if u.PaymentBasis == "" {
		u.setTerms(terms.Default())
	}
	if u.VATRegime == "" {
		u.VATRegime = vat.Of(u.TVAIntracom)
	}
	if u.EmailConfirmedKey == "" {
		u.EmailConfirmedKey = EmailKey(u.Email)
	}
	u.LatE6, u.LonE6 = Position(u.Latitude, u.Longitude)
}

// InsertAll stores complete user rows in bulk inside the caller's
// transaction (store.Insert: COPY on PostgreSQL, multi-row statements on
// SQLite), as Insert would one by one: for the seeding of large platforms
// (tools/loadbench, tools/e2eseed). It does not check that emails are
// free: a taken one fails the statement.
func InsertAll(ctx context.Context, q store.Q, us []User) error {
	err := store.Insert(ctx, q, "users", userColumnList, len(us), func(i int, v []any) {
		u := us[i]
		u.completeRow()
		var mandate any
		if u.BillingMandateAt != nil {
			mandate = *u.BillingMandateAt
		}
		copy(v, []any{u.ID, u.Type, u.Email, u.EmailKey, u.Name, u.PasswordHash, u.Capital, u.BIC, u.APE, u.IBAN,
			u.SIRET, u.Tel, u.TVAIntracom, u.AddressLine1, u.AddressLine2, u.AddressLine3, u.Latitude,
			u.Longitude, nullable(u.LatE6), nullable(u.LonE6), u.Certification, u.Legal, u.DeliveryDays,
			u.BillingAddressLine1, u.BillingAddressLine2, u.BillingAddressLine3,
			mandate, u.PaymentBasis, u.PaymentDays, u.PaymentDiscount, u.PaymentDiscountDays,
			u.VATRegime, u.CutoffOptOut, u.DeliveryInstructions, u.OpeningHours, u.EmailConfirmedKey, u.CreatedAt, u.UpdatedAt})
	})
	if err != nil {
		return fmt.Errorf("accounts: insert users: %w", err)
	}
	return insertFounders(ctx, q, us)
}

func nullable(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// ByID returns the user with that id, or core.ErrNotFound.
func ByID(ctx context.Context, q store.Q, id string) (User, error) {
	u, err := getUser(ctx, q, `SELECT `+userColumns+` FROM users WHERE id = ?`, id)
	if store.IsNotFound(err) {
		return User{}, fmt.Errorf("accounts: user %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return User{}, fmt.Errorf("accounts: user %s: %w", id, err)
	}
	return u, nil
}

// ByEmail returns the user with that email (any case), or core.ErrNotFound.
func ByEmail(ctx context.Context, q store.Q, email string) (User, error) {
	u, err := getUser(ctx, q, `SELECT `+userColumns+` FROM users WHERE email_key = ?`, EmailKey(email))
	if store.IsNotFound(err) {
		return User{}, fmt.Errorf("accounts: user %q: %w", email, core.ErrNotFound)
	}
	if err != nil {
		return User{}, fmt.Errorf("accounts: user %q: %w", email, err)
	}
	return u, nil
}

// List returns every user, ordered by type then email.
func List(ctx context.Context, q store.Q) ([]User, error) {
	var us []User
	if err := store.Select(ctx, q, &us, `SELECT `+userColumns+` FROM users ORDER BY type, email_key`); err != nil {
		return nil, fmt.Errorf("accounts: list users: %w", err)
	}
	return us, nil
}

// Shop is a shop as the user load names it (PRODUCT §3 "Distributor
// (shop) on the map").
type Shop struct {
	ID        string `db:"id"`
	Name      string `db:"name"`
	Email     string `db:"email"`
	Latitude  string `db:"latitude"`
	Longitude string `db:"longitude"`
}

// ShopEmail is the SQL of a shop's email as a viewer sees it, the shop
// being users row u; its arguments are ShopEmailArgs(viewer). A shop's
// email is its login, so it is contact data given only to those who trade
// with the shop (docs/SECURITY.md "Contact data"): the shop itself, and a
// producer with a commitment (an accepted proposal) on one of its needs or
// an order with it — both exist only once the shop has accepted to trade.
// For everyone else it is empty. A pending or rejected proposal, which the
// producer alone decides, reveals nothing. The user load, the map
// (core/shopmap) and a shop's card (ShopFor) read it.
const ShopEmail = `CASE WHEN u.id = ? OR u.id IN (
			SELECT n.distributor_id FROM proposals p JOIN needs n ON n.id = p.need_id
				WHERE p.producer_id = ? AND p.status = 'accepted'
			UNION SELECT o.distributor_id FROM orders o WHERE o.producer_id = ?
		) THEN u.email ELSE '' END`

// ShopEmailArgs are the arguments of ShopEmail for viewer.
func ShopEmailArgs(viewerID string) []any { return []any{viewerID, viewerID, viewerID} }

// ShopsOf returns the shops the viewer's own data names, not closed,
// ordered by name: for a shop, itself; for a producer, the shops of its
// proposals (whatever their status), commitments and orders. Their names
// label the viewer's deliveries and needs; every other shop is the map's
// (core/shopmap), so that this part of the user load follows the user's
// own data, not the platform (issue 20). Emails follow ShopEmail.
func ShopsOf(ctx context.Context, q store.Q, viewer User) ([]Shop, error) {
	ss := []Shop{}
	// The ids first, then each account by its key (CROSS JOIN fixes that
	// order for SQLite): given u.type = ? with an OR, SQLite walked every
	// shop of the platform and tested each against the lists (issue 20).
	args := append(ShopEmailArgs(viewer.ID), viewer.ID, viewer.ID, viewer.ID, Distributor)
	if err := store.Select(ctx, q, &ss, `SELECT u.id, u.name, u.latitude, u.longitude, `+ShopEmail+` AS email
		FROM (SELECT CAST(? AS TEXT) AS id
			UNION SELECT n.distributor_id FROM proposals p JOIN needs n ON n.id = p.need_id WHERE p.producer_id = ?
			UNION SELECT o.distributor_id FROM orders o WHERE o.producer_id = ?) s
		CROSS JOIN users u WHERE u.id = s.id AND u.type = ? AND u.closed_at IS NULL
		ORDER BY u.name, u.id`, args...); err != nil {
		return nil, fmt.Errorf("accounts: shops of %s: %w", viewer.ID, err)
	}
	return ss, nil
}

// ShopFor returns the shop with that id as viewer sees it (ShopEmail), or
// core.ErrNotFound when there is no such shop or it is closed: the page of
// a shop's needs names it, opened from the map before any trade.
func ShopFor(ctx context.Context, q store.Q, viewer User, id string) (Shop, error) {
	var s Shop
	args := append(ShopEmailArgs(viewer.ID), id, Distributor)
	err := store.Get(ctx, q, &s, `SELECT u.id, u.name, u.latitude, u.longitude, `+ShopEmail+` AS email
		FROM users u WHERE u.id = ? AND u.type = ? AND u.closed_at IS NULL`, args...)
	if store.IsNotFound(err) {
		return Shop{}, fmt.Errorf("accounts: shop %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Shop{}, fmt.Errorf("accounts: shop %s: %w", id, err)
	}
	return s, nil
}

// ShopIDs returns the id of every shop not closed, sorted.
func ShopIDs(ctx context.Context, q store.Q) ([]string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM users WHERE type = ? AND closed_at IS NULL ORDER BY id`, Distributor); err != nil {
		return nil, fmt.Errorf("accounts: list shop ids: %w", err)
	}
	return ids, nil
}

// Name is a user's id and name.
type Name struct {
	ID   string `db:"id"`
	Name string `db:"name"`
}

// Names returns the names of the users with these ids, ordered by name.
func Names(ctx context.Context, q store.Q, ids []string) ([]Name, error) {
	if len(ids) == 0 {
		return []Name{}, nil
	}
	var ns []Name
	if err := store.SelectIn(ctx, q, &ns, `SELECT id, name FROM users WHERE id IN (?) ORDER BY name, id`, ids); err != nil {
		return nil, fmt.Errorf("accounts: names: %w", err)
	}
	return ns, nil
}

// SetPassword replaces the password of the user with that email, checking
// the PRODUCT §5 password rule. Existing sessions are ended, and the
// account's links (endCredentials). The password is hashed before the
// transaction that stores it.
func SetPassword(ctx context.Context, db *store.DB, email, password string, now time.Time) error {
	if !ValidPassword(password) {
		return core.Invalid("password", MsgPasswordInvalid)
	}
	u, err := ByEmail(ctx, db, email)
	if errors.Is(err, core.ErrNotFound) {
		return setPersonPassword(ctx, db, email, password, now) // a member's own login (people.go)
	}
	if err != nil {
		return err
	}
	hash, err := HashPassword(ctx, password)
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := store.Exec(ctx, tx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, now.UnixMilli(), u.ID); err != nil {
			return fmt.Errorf("accounts: set password: %w", err)
		}
		return endCredentials(ctx, tx, u.ID, "", now)
	})
}

// UpdateProfile validates p for u and stores it. It returns the updated user
// and whether the delivery days changed. It re-plans nothing: the profile
// form goes through trade.UpdateProfile, which re-plans a producer's
// deliveries when its days changed. The SIRET and VAT number are checked
// against what u holds (ProfileUpdate.prepare); a change of IBAN or BIC
// needs p to come from CheckBankChange with the password (MsgBankPassword
// otherwise), and a change of IBAN is timed (bank.go).
func UpdateProfile(ctx context.Context, q store.Q, u User, p ProfileUpdate, now time.Time) (User, bool, error) {
	p, err := p.prepare(u)
	if err != nil {
		return User{}, false, err
	}
	if p.changesBank(u) && !p.bankVerified {
		return User{}, false, core.Invalid(FieldCurrentPassword, MsgBankPassword)
	}
	ibanChanged := p.IBAN != nil && *p.IBAN != u.IBAN
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&u.Name, p.Name)
	set(&u.Capital, p.Capital)
	set(&u.BIC, p.BIC)
	set(&u.APE, p.APE)
	set(&u.IBAN, p.IBAN)
	set(&u.SIRET, p.SIRET)
	set(&u.Tel, p.Tel)
	set(&u.TVAIntracom, p.TVAIntracom)
	set(&u.AddressLine1, p.AddressLine1)
	set(&u.AddressLine2, p.AddressLine2)
	set(&u.AddressLine3, p.AddressLine3)
	set(&u.Latitude, p.Latitude)
	set(&u.Longitude, p.Longitude)
	set(&u.Certification, p.Certification)
	set(&u.Legal, p.Legal)
	set(&u.BillingAddressLine1, p.BillingAddressLine1)
	set(&u.BillingAddressLine2, p.BillingAddressLine2)
	set(&u.BillingAddressLine3, p.BillingAddressLine3)
	set(&u.DeliveryInstructions, p.DeliveryInstructions)
	set(&u.OpeningHours, p.OpeningHours)
	if p.PaymentTerms != nil {
		u.setTerms(*p.PaymentTerms)
	}
	if p.CutoffReminder != nil {
		u.CutoffOptOut = !*p.CutoffReminder
	}
	if u.IsProducer() {
		switch {
		case p.VATRegime != nil:
			u.VATRegime = *p.VATRegime
		case p.TVAIntracom != nil:
			// A client that does not know the regimes: the regime of a
			// producer who set or cleared its VAT number.
			u.VATRegime = vat.Of(u.TVAIntracom)
		}
		if u.VATRegime == vat.Normal && u.TVAIntracom == "" {
			field := "vatRegime"
			if p.TVAIntracom != nil {
				field = "tvaintracom"
			}
			return User{}, false, core.Invalid(field, MsgVATRegimeNumber)
		}
	}
	daysChanged := false
	if p.DefaultDeliveryDays != nil {
		days := encodeDays(p.DefaultDeliveryDays)
		daysChanged = days != u.DeliveryDays
		u.DeliveryDays = days
	}
	u.UpdatedAt = now.UnixMilli()
	u.LatE6, u.LonE6 = Position(u.Latitude, u.Longitude)
	query := `UPDATE users SET name = :name, capital = :capital, bic = :bic, ape = :ape,
		iban = :iban, siret = :siret, tel = :tel, tvaintracom = :tvaintracom,
		address_line1 = :address_line1, address_line2 = :address_line2,
		address_line3 = :address_line3, latitude = :latitude, longitude = :longitude,
		lat_e6 = :lat_e6, lon_e6 = :lon_e6, certification = :certification, legal = :legal, delivery_days = :delivery_days,
		billing_address_line1 = :billing_address_line1,
		billing_address_line2 = :billing_address_line2,
		billing_address_line3 = :billing_address_line3, payment_basis = :payment_basis,
		payment_days = :payment_days, payment_discount = :payment_discount,
		payment_discount_days = :payment_discount_days, vat_regime = :vat_regime, cutoff_optout = :cutoff_optout,
		delivery_instructions = :delivery_instructions, opening_hours = :opening_hours,
		updated_at = :updated_at WHERE id = :id`
	if _, err := store.NamedExec(ctx, q, query, u); err != nil {
		return User{}, false, fmt.Errorf("accounts: update profile: %w", err)
	}
	if ibanChanged {
		if err := recordIBANChange(ctx, q, u.ID, now); err != nil {
			return User{}, false, err
		}
	}
	return u, daysChanged, nil
}
