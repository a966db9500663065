package accounts

import (
	"primeur/core/notify"

	"time"

	"primeur/core/terms"
	"primeur/core/vat"
)

// Profile is a user as the UI receives it (PRODUCT §3). Role-specific fields are
// present only for their role.
type Profile struct {
	ID            string `json:"_id"`
	Type          string `json:"type" enum:"producer,distributor"`
	Email         string `json:"email"`
	Name          string `json:"name"`
	UpdatedAt     string `json:"updatedAt" doc:"RFC 3339"`
	Capital       string `json:"capital"`
	BIC           string `json:"bic"`
	APE           string `json:"ape"`
	IBAN          string `json:"iban"`
	SIRET         string `json:"siret"`
	Tel           string `json:"tel"`
	TVAIntracom   string `json:"tvaintracom"`
	AddressLine1  string `json:"addressLine1"`
	AddressLine2  string `json:"addressLine2"`
	AddressLine3  string `json:"addressLine3"`
	Latitude      string `json:"latitude"`
	Longitude     string `json:"longitude"`
	Certification string `json:"certification"`
	Legal         string `json:"legal"`

	// IdentifierIssues are what is wrong with the SIRET and VAT number
	// stored (User.IdentifierIssues): the owner's notice.
	IdentifierIssues []IdentifierIssue `json:"identifierIssues" doc:"What is wrong with the SIRET or VAT number stored (accepted before they were checked), for the notice asking the owner to correct them; empty when nothing is. Trade goes on meanwhile"`

	EmailConfirmed bool   `json:"emailConfirmed" doc:"Whether the login email is confirmed: documents and notifications go only to confirmed addresses"`
	EmailPending   string `json:"emailPending,omitempty" doc:"A new login email waiting for its confirmation link"`
	// Notifications are the user's choices of email notifications, filled
	// by the caller (core/notify).
	Notifications []notify.Pref `json:"notifications" doc:"Per kind of notification: immediate (at most one email an hour), daily (7h) or none"`

	// Teams (issue 41, people.go): who is signed in, their role here, and
	// every organisation of theirs for the header's switcher; filled by
	// the caller from the session.
	Person        *PersonView  `json:"person,omitempty" doc:"The person signed in (a session's answer only)"`
	Role          string       `json:"role,omitempty" enum:"owner,buyer,receiver,sales,delivery,accountant" doc:"The person's role in this organisation (a session's answer only)"`
	Organisations []Membership `json:"organisations,omitempty" doc:"Every organisation of the person, by name, this one among them (a session's answer only)"`

	DefaultDeliveryDays *[7]bool     `json:"defaultDeliveryDays,omitempty" doc:"Producers: delivery days, Monday first"`
	PaymentTerms        *terms.Terms `json:"paymentTerms,omitempty" doc:"Producers: payment terms of their invoices"`
	VATRegime           *string      `json:"vatRegime,omitempty" enum:"normal,franchise,flat" doc:"Producers: VAT regime — normal (VAT charged, a VAT number), franchise (art. 293 B CGI) or flat (a farmer under the agricultural flat-rate refund, not liable to VAT)"`
	CutoffReminder      *bool        `json:"cutoffReminder,omitempty" doc:"Producers: whether the reminder of the 25th (shops' needs still open for next month) is emailed"`

	BillingAddressLine1  *string `json:"billingAddressLine1,omitempty"`
	BillingAddressLine2  *string `json:"billingAddressLine2,omitempty"`
	BillingAddressLine3  *string `json:"billingAddressLine3,omitempty"`
	DeliveryInstructions *string `json:"deliveryInstructions,omitempty" doc:"Shops: delivery instructions for the producers' packing sheets and round (where to unload, whom to ask)"`
	OpeningHours         *string `json:"openingHours,omitempty" doc:"Shops: opening hours or delivery window, for the producers' round"`
}

// Profile returns the UI view of u.
func (u User) Profile() Profile {
	p := Profile{
		ID:            u.ID,
		Type:          u.Type,
		Email:         u.Email,
		Name:          u.Name,
		UpdatedAt:     time.UnixMilli(u.UpdatedAt).UTC().Format(time.RFC3339),
		Capital:       u.Capital,
		BIC:           u.BIC,
		APE:           u.APE,
		IBAN:          u.IBAN,
		SIRET:         u.SIRET,
		Tel:           u.Tel,
		TVAIntracom:   u.TVAIntracom,
		AddressLine1:  u.AddressLine1,
		AddressLine2:  u.AddressLine2,
		AddressLine3:  u.AddressLine3,
		Latitude:      u.Latitude,
		Longitude:     u.Longitude,
		Certification: u.Certification,
		Legal:         u.Legal,

		IdentifierIssues: u.IdentifierIssues(),

		EmailConfirmed: u.EmailConfirmed(),
		Notifications:  []notify.Pref{},
	}
	if u.IsProducer() {
		days := u.Days()
		p.DefaultDeliveryDays = &days
		t := u.Terms()
		p.PaymentTerms = &t
		r := u.VATRegime
		if r == "" {
			r = vat.Of(u.TVAIntracom) // a user not read back since it was built
		}
		p.VATRegime = &r
		on := !u.CutoffOptOut
		p.CutoffReminder = &on
	} else {
		p.DeliveryInstructions = &u.DeliveryInstructions
		p.OpeningHours = &u.OpeningHours
		p.BillingAddressLine1 = &u.BillingAddressLine1
		p.BillingAddressLine2 = &u.BillingAddressLine2
		p.BillingAddressLine3 = &u.BillingAddressLine3
	}
	return p
}
