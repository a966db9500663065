package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/terms"
	"primeur/core/trade"
)

// MapShop is a shop the user load names (PRODUCT §3 "Distributor (shop)
// on the map").
type MapShop struct {
	ID        string `json:"_id"`
	Name      string `json:"name"`
	Email     string `json:"email" doc:"The shop's login email, for itself and the producers trading with it; empty otherwise"`
	Latitude  string `json:"latitude"`
	Longitude string `json:"longitude"`
}

// MapProducer is a producer as other users see it.
type MapProducer struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// UserLoad is what every screen needs after login (PRODUCT §3 "user
// load"): who the user is and the names its screens show. Each screen asks
// for the rest itself, scoped to what it shows (reads.go, issue 42): the
// catalogue (GET /api/catalogue), the needs of the months in view (GET
// /api/needs), the orders of the period (GET /api/orders), the feed's
// first page (GET /api/events), the statistics' aggregates (GET
// /api/stats/purchases).
type UserLoad struct {
	User         accounts.Profile `json:"user"`
	Distributors []MapShop        `json:"distributors" doc:"The shops the user's own data names: for a shop, itself; for a producer, the shops of its proposals, commitments and orders (the map's shops are GET /api/map's). A shop's email only for itself and the producers trading with it (a commitment or an order), empty otherwise"`
	Producers    []MapProducer    `json:"producers" doc:"For a shop, the producers of the proposals and commitments on its needs and of its orders from 12 months back; for a producer, itself"`
	Counts       LoadCounts       `json:"counts" doc:"What the screens count without listing it"`
}

// LoadCounts are the user load's counters.
type LoadCounts struct {
	Needs int `json:"needs" doc:"A shop's needs, every month (the first steps' checklist); 0 for a producer"`
}

// UserLoadOutput answers GET /api/user.
type UserLoadOutput struct {
	Body UserLoad
}

// ProfileInput is the profile form; absent fields are left unchanged.
type ProfileInput struct {
	Body struct {
		Name                *string     `json:"name,omitempty"`
		Capital             *string     `json:"capital,omitempty" doc:"Digits only"`
		BIC                 *string     `json:"bic,omitempty" example:"AGRIFRPP882"`
		APE                 *string     `json:"ape,omitempty" example:"0113Z"`
		IBAN                *string     `json:"iban,omitempty" example:"FR7630006000011234567890189"`
		SIRET               *string     `json:"siret,omitempty" example:"12345678900012"`
		Tel                 *string     `json:"tel,omitempty" example:"0612345678"`
		TVAIntracom         *string     `json:"tvaintracom,omitempty" example:"FR32123456789"`
		AddressLine1        *string     `json:"addressLine1,omitempty"`
		AddressLine2        *string     `json:"addressLine2,omitempty"`
		AddressLine3        *string     `json:"addressLine3,omitempty"`
		Latitude            *string     `json:"latitude,omitempty" example:"45.9016"`
		Longitude           *string     `json:"longitude,omitempty" example:"6.1213"`
		Certification       *string     `json:"certification,omitempty"`
		Legal               *string     `json:"legal,omitempty"`
		DefaultDeliveryDays []bool      `json:"defaultDeliveryDays,omitempty" doc:"Producers: 7 booleans, Monday first" minItems:"7" maxItems:"7"`
		PaymentTerms        *TermsInput `json:"paymentTerms,omitempty" doc:"Producers: the payment terms of their invoices"`
		VATRegime           *string     `json:"vatRegime,omitempty" required:"false" doc:"Producers: VAT regime, normal, franchise or flat (PRODUCT §16 \"VAT regimes\"); absent: unchanged, or, when tvaintracom changes, normal with a VAT number and flat without"`
		CutoffReminder      *bool       `json:"cutoffReminder,omitempty" doc:"Producers: the reminder of the 25th (shops' needs still open for next month), on or off"`
		EmailAccounting     *string     `json:"emailAccounting,omitempty" deprecated:"true" doc:"Retired with the teams (issue 41): the accountant is a member of the team. Set, refused (422, the French message pointing to the team); empty, ignored, for the clients of before"`
		BillingAddressLine1 *string     `json:"billingAddressLine1,omitempty" doc:"Shops only"`
		BillingAddressLine2 *string     `json:"billingAddressLine2,omitempty" doc:"Shops only"`
		BillingAddressLine3 *string     `json:"billingAddressLine3,omitempty" doc:"Shops only"`
		// Shops only: for the producers' packing sheets and round.
		DeliveryInstructions *string `json:"deliveryInstructions,omitempty" maxLength:"5000" doc:"Shops only: delivery instructions (where to unload, whom to ask), 500 characters at most, several lines allowed" example:"Livrer par la cour, sonner à la réserve"`
		OpeningHours         *string `json:"openingHours,omitempty" maxLength:"5000" doc:"Shops only: opening hours or delivery window, 500 characters at most" example:"Mardi à samedi, 7h30–11h"`
		CurrentPassword      *string `json:"currentPassword,omitempty" doc:"The account's current password: needed when iban or bic change (set, replaced or cleared), checked and throttled as a login attempt; ignored otherwise"`
	}
}

// TermsInput are the payment terms as PUT /api/user reads them: a field
// left out is zero and the basis any text, so that terms.Terms.Validate
// answers what is wrong with its French message per field instead of the
// schema's refusal.
type TermsInput struct {
	Basis        string `json:"basis" required:"false" doc:"decade or month: days counted after the end of the décade of the first delivery billed, or of its month"`
	Days         int    `json:"days" required:"false" doc:"21-30 after the décade, 0-9 after the month (the monthly invoice is issued on the month's last day; 30 days after the décade is the legal maximum for perishables)"`
	Discount     int64  `json:"discount" required:"false" doc:"Early-payment discount in hundredths of a percent (200 = 2 %, at most 1000); 0: none"`
	DiscountDays int    `json:"discountDays" required:"false" doc:"The discount applies to a payment within this many days of the issue (1-30), and never after the due date"`
}

// profileRequest resolves the client address, for the throttling of the
// password a change of bank details needs.
type profileRequest struct {
	ProfileInput
	clientRequest
}

// ProfileOutput answers PUT /api/user.
type ProfileOutput struct {
	Body struct {
		User   accounts.Profile `json:"user"`
		Orders []orders.View    `json:"orders" doc:"The user's orders, re-planned when delivery days changed"`
	}
}

func (d *Daemon) registerUser(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-user",
		Method:      http.MethodGet,
		Path:        "/user",
		Summary:     "Load what every screen of the user needs",
		Description: "The profile, the shops the user trades with, the producers named on the screens and the counters. " +
			"Each screen reads the rest scoped to what it shows: the catalogue, the needs of the months in view, the orders " +
			"of the period, the feed's first page, the statistics (issue 42). " +
			"Without a session, 401 with `User did not provide any token` (PRODUCT §8).",
		Tags:   []string{"User"},
		Errors: []int{http.StatusUnauthorized},
	}, d.getUser)

	huma.Register(api, huma.Operation{
		OperationID: "update-user",
		Method:      http.MethodPut,
		Path:        "/user",
		Summary:     "Update the profile",
		Description: "Every PRODUCT §5 profile rule is checked; a SIRET or VAT number sent as stored is not checked again. " +
			"A change of a producer's delivery days re-plans its upcoming deliveries. " +
			"A change of iban or bic needs currentPassword (422 without it or wrong, nothing changed; 429 past the login " +
			"attempts' limits) and is emailed to the account's confirmed login address (PRODUCT §13).",
		Tags:   []string{"User"},
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.updateUser)

	// What the user load no longer carries: each screen's own read.
	d.registerReads(api)
}

func (d *Daemon) getUser(ctx context.Context, _ *struct{}) (*UserLoadOutput, error) {
	u := currentUser(ctx)
	load, err := d.userLoad(ctx, d.db, u)
	if err != nil {
		return nil, err
	}
	return &UserLoadOutput{Body: load}, nil
}

// userLoad gathers the user load, every read on q (the daemon's database;
// the benchmark's recorder of the reads, export_userload_test.go). Each
// concern contributes its part.
func (d *Daemon) userLoad(ctx context.Context, q store.Q, u accounts.User) (UserLoad, error) {
	var load UserLoad
	var err error
	if load.User, err = d.profile(ctx, q, u); err != nil {
		return load, err
	}
	if load.Distributors, err = shops(ctx, q, u); err != nil {
		return load, err
	}
	from := calendar.MonthOf(d.now()).AddMonths(-12).String()
	if load.Producers, err = producersOf(ctx, q, u, from); err != nil {
		return load, err
	}
	if u.IsDistributor() {
		if load.Counts.Needs, err = planning.Count(ctx, q, u.ID); err != nil {
			return load, err
		}
	}
	return load, nil
}

// shops lists the shops the user's own data names (accounts.ShopsOf): a
// shop itself; a producer's partners — the shops of its proposals,
// commitments and orders —, whose names its deliveries and needs show.
// Every other shop is the map's (GET /api/map), so the user load follows
// the user's own data, not the platform (issue 20). A shop's email is
// given only to the shop itself and to the producers trading with it.
func shops(ctx context.Context, q store.Q, u accounts.User) ([]MapShop, error) {
	shops, err := accounts.ShopsOf(ctx, q, u)
	if err != nil {
		return nil, err
	}
	ms := make([]MapShop, len(shops))
	for i, s := range shops {
		ms[i] = MapShop{ID: s.ID, Name: s.Name, Email: s.Email, Latitude: s.Latitude, Longitude: s.Longitude}
	}
	return ms, nil
}

// producersOf names the producers the user's screens show: for a shop,
// those of the proposals and commitments on its needs and of its orders
// from the month from on (the commitment cards, deliveries and supply
// details name them; accounts.ProducersOf); for a producer, itself (it sees
// only its own proposals; its partners are shops).
func producersOf(ctx context.Context, q store.Q, u accounts.User, from string) ([]MapProducer, error) {
	if !u.IsDistributor() {
		return []MapProducer{{ID: u.ID, Name: u.Name}}, nil
	}
	names, err := accounts.ProducersOf(ctx, q, u.ID, from)
	if err != nil {
		return nil, err
	}
	mp := make([]MapProducer, len(names))
	for i, n := range names {
		mp[i] = MapProducer{ID: n.ID, Name: n.Name}
	}
	return mp, nil
}

func (d *Daemon) updateUser(ctx context.Context, in *profileRequest) (*ProfileOutput, error) {
	b := in.Body
	var pt *terms.Terms
	if b.PaymentTerms != nil {
		t := terms.Terms(*b.PaymentTerms)
		pt = &t
	}
	p := accounts.ProfileUpdate{
		Name: b.Name, Capital: b.Capital, BIC: b.BIC, APE: b.APE, IBAN: b.IBAN, SIRET: b.SIRET,
		Tel: b.Tel, TVAIntracom: b.TVAIntracom, AddressLine1: b.AddressLine1,
		AddressLine2: b.AddressLine2, AddressLine3: b.AddressLine3, Latitude: b.Latitude,
		Longitude: b.Longitude, Certification: b.Certification, Legal: b.Legal,
		DefaultDeliveryDays: b.DefaultDeliveryDays, EmailAccounting: b.EmailAccounting,
		BillingAddressLine1: b.BillingAddressLine1, BillingAddressLine2: b.BillingAddressLine2,
		BillingAddressLine3: b.BillingAddressLine3, DeliveryInstructions: b.DeliveryInstructions, OpeningHours: b.OpeningHours,
		PaymentTerms: pt, VATRegime: b.VATRegime, CutoffReminder: b.CutoffReminder,
	}
	var u accounts.User
	before := currentUser(ctx)
	// A change of bank details needs the password, checked before the
	// transaction (its hash must not hold one open).
	current := ""
	if b.CurrentPassword != nil {
		current = *b.CurrentPassword
	}
	p, err := accounts.CheckBankChange(ctx, d.db, before, p, current, in.client, d.now())
	if err != nil {
		return nil, err
	}
	err = d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		u, err = trade.UpdateProfile(ctx, tx, before.ID, p, d.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	if accounts.BankChanged(before, u) && u.EmailConfirmed() {
		d.mailAfter("bank details changed", d.bankChangedMail(u), u.ID)
	}
	out := &ProfileOutput{}
	if out.Body.User, err = d.profile(ctx, d.db, u); err != nil {
		return nil, err
	}
	if out.Body.Orders, err = d.ordersOf(ctx, d.db, u); err != nil {
		return nil, err
	}
	return out, nil
}

// ordersOf returns the user's orders from 12 months back, seen from its
// side, built in sc's arrays (nil: allocated).
func (d *Daemon) ordersOf(ctx context.Context, q store.Q, u accounts.User) ([]orders.View, error) {
	f := orders.Filter{ProducerID: u.ID, From: calendar.AddMonthsTo(calendar.MonthOf(d.now()).String(), -12)}
	if u.IsDistributor() {
		f = orders.Filter{DistributorID: u.ID, From: f.From}
	}
	vs, err := orders.LoadViews(ctx, q, f, u.ID)
	if err != nil {
		return nil, err
	}
	return vs, withPA(ctx, q, vs)
}
