package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/delivery"
	"primeur/core/orders"
)

// DeliveryPath names a delivery of an order.
type DeliveryPath struct {
	OrderID    string `path:"orderId" maxLength:"100" doc:"Order id"`
	DeliveryID string `path:"deliveryId" maxLength:"100" doc:"Delivery id"`
}

// SentLineInput is the sent quantity of one line.
type SentLineInput struct {
	ID           string   `json:"_id" required:"false" maxLength:"100" doc:"Delivery line id. Needed: a line without it is refused (422)"`
	QuantitySent *float64 `json:"quantitySent,omitempty" doc:"Quantity delivered in the product's unit (2 decimals for kg, whole pieces); absent leaves it unchanged" example:"12.5"`
}

// UpdateDeliveryInput is the shop's change of a planned delivery.
type UpdateDeliveryInput struct {
	DeliveryPath
	Body struct {
		Date          *string         `json:"date,omitempty" maxLength:"40" doc:"New date, YYYY-MM-DD, tomorrow at the earliest, in the order's month" example:"2026-11-26"`
		DeliveryLines []SentLineInput `json:"deliveryLines,omitempty" maxItems:"200" doc:"Sent quantities per line"`
	}
}

// ClaimLineInput is the claim on one line.
type ClaimLineInput struct {
	ID              string   `json:"_id" required:"false" maxLength:"100" doc:"Delivery line id. Needed: a line without it is refused (422)"`
	QuantityClaimed *float64 `json:"quantityClaimed,omitempty" doc:"Signed adjustment to the sent quantity: -3 when 3 kg were unfit; two decimals at most (whole pieces), and the sent plus the claimed quantity stays between 0 and the quantity ordered for the line" example:"-3"`
	ClaimType       *string  `json:"claimType,omitempty" maxLength:"20" doc:"quality or quantity; required when the quantity is not 0" example:"quality"`
	ClaimComment    *string  `json:"claimComment,omitempty" maxLength:"5000" doc:"Optional comment (500 characters at most)"`
}

// ClaimDeliveryInput is the producer's claim on a done delivery.
type ClaimDeliveryInput struct {
	DeliveryPath
	Body struct {
		DeliveryLines []ClaimLineInput `json:"deliveryLines" required:"false" maxItems:"200" doc:"The whole claim: lines left out claim nothing. Needed: a claim without lines is refused (422)"`
	}
}

// ReviewDeliveryInput is the answer to the other party's claim: the
// shop's to the producer's, the producer's to the shop's (its reception).
type ReviewDeliveryInput struct {
	DeliveryPath
	Body struct {
		Accepted *bool `json:"accepted" required:"true" nullable:"false" doc:"true accepts the claim, false refuses it"`
	}
}

// DeliverySettingsOutput tells the screens the delivery rules in force.
type DeliverySettingsOutput struct {
	Body struct {
		Lock              string   `json:"lock" doc:"Time of day (HH:MM, Europe/Paris) when a planned delivery locks on its date" example:"12:00"`
		LockLabel         string   `json:"lockLabel" doc:"The lock time as users read it" example:"12h"`
		TimeZone          string   `json:"timeZone" example:"Europe/Paris"`
		AutovalidateHours int      `json:"autovalidateHours" doc:"Hours after which a claim the shop has not answered is accepted, when it lowers the amount (no line claimed up); a claim with a line claimed up waits for the shop's answer" example:"48"`
		ClaimWorkingDays  int      `json:"claimWorkingDays" doc:"A claim may be sent until the end of this many working days after the delivery date (Monday to Friday, French public holidays excepted), in the business time zone" example:"2"`
		Holidays          []string `json:"holidays" doc:"The French public holidays falling from Monday to Friday, YYYY-MM-DD, from the start of last year to the end of next year: the days a claim window does not count" example:"[\"2026-11-11\",\"2026-12-25\"]"`
	}
}

// OrderOutput is an order seen by the caller.
type OrderOutput struct {
	Body orders.View
}

func (d *Daemon) rules() delivery.Rules { return delivery.RulesOf(d.cfg) }

func (d *Daemon) registerDeliveries(api huma.API) {
	tags := []string{"Deliveries"}
	huma.Register(api, huma.Operation{
		OperationID: "get-delivery-settings", Method: http.MethodGet, Path: "/deliveries/settings", Tags: tags,
		Summary:     "The delivery rules in force (lock time, claim auto-validation delay)",
		Description: "From the delivery.lock and claims.autovalidate-after settings, so the screens offer what the daemon accepts.",
		Errors:      []int{http.StatusUnauthorized},
	}, d.deliverySettings)
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "update-delivery", Method: http.MethodPut, Path: "/deliveries/update/{orderId}/{deliveryId}", Tags: tags,
		Summary: "Change a planned delivery's date or sent quantities (shops)",
		Description: "Only while the delivery is planned and before its lock (delivery.lock on the delivery date, Europe/Paris). " +
			"The date is tomorrow at the earliest. Answers the order.",
		Errors: errs,
	}, d.updateDelivery)
	huma.Register(api, huma.Operation{
		OperationID: "cancel-delivery", Method: http.MethodPut, Path: "/deliveries/cancel/{orderId}/{deliveryId}", Tags: tags,
		Summary:     "Cancel a planned delivery (shops)",
		Description: "Only while planned and before its lock. A cancelled delivery counts nowhere. Answers the order.",
		Errors:      errs,
	}, d.cancelDelivery)
	huma.Register(api, huma.Operation{
		OperationID: "claim-delivery", Method: http.MethodPut, Path: "/deliveries/claim/{orderId}/{deliveryId}", Tags: tags,
		Summary: "Send or modify a claim (demande d'avoir) on a done delivery (producers)",
		Description: "Until the end of the second working day after the delivery date (claimWorkingDays of the settings), " +
			"invoiced or not, while the claim is not reviewed. Records claim:request. " +
			"If accepted, a credit note or complementary invoice settles it. Answers the order.",
		Errors: errs,
	}, d.claimDelivery)
	huma.Register(api, huma.Operation{
		OperationID: "review-delivery", Method: http.MethodPut, Path: "/deliveries/review/{orderId}/{deliveryId}", Tags: tags,
		Summary: "Accept or refuse the other party's pending claim",
		Description: "The shop answers the producer's claim; the producer answers the shop's, made by its reception " +
			"(the lines received otherwise than the note). A party never answers its own claim (409). " +
			"Records claim:review; an accepted claim of an invoiced order is settled at once by a credit note " +
			"or a complementary invoice. Answers the order.",
		Errors: errs,
	}, d.reviewDelivery)
}

// deliveryTx runs a delivery operation in a transaction and answers the
// order as the caller sees it.
func (d *Daemon) deliveryTx(ctx context.Context, viewerID string, op func(tx *sqlx.Tx) (orders.Full, error)) (*OrderOutput, error) {
	full, err := inTx(ctx, d, op)
	if err != nil {
		return nil, err
	}
	v := []orders.View{full.ViewFor(viewerID)}
	if err := withPA(ctx, d.db, v); err != nil {
		return nil, err
	}
	return &OrderOutput{Body: v[0]}, nil
}

func (d *Daemon) deliverySettings(context.Context, *struct{}) (*DeliverySettingsOutput, error) {
	out := &DeliverySettingsOutput{}
	r := d.rules()
	out.Body.Lock = d.cfg.Delivery.Lock
	out.Body.LockLabel = r.LockLabel()
	out.Body.TimeZone = d.cfg.Timezone
	out.Body.AutovalidateHours = int(r.AutovalidateAfter.Hours())
	out.Body.ClaimWorkingDays = delivery.ClaimWorkingDays
	year := d.now().Year()
	out.Body.Holidays = []string{}
	for _, h := range delivery.WeekdayHolidays(calendar.Civil(year-1, time.January, 1), calendar.Civil(year+1, time.December, 31)) {
		out.Body.Holidays = append(out.Body.Holidays, h.String())
	}
	return out, nil
}

func (d *Daemon) updateDelivery(ctx context.Context, in *UpdateDeliveryInput) (*OrderOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	c := delivery.Change{Date: in.Body.Date}
	for _, l := range in.Body.DeliveryLines {
		c.Lines = append(c.Lines, delivery.LineSent{ID: l.ID, QuantitySent: l.QuantitySent})
	}
	return d.deliveryTx(ctx, u.ID, func(tx *sqlx.Tx) (orders.Full, error) {
		return d.rules().Update(ctx, tx, u.ID, in.OrderID, in.DeliveryID, c, d.now())
	})
}

func (d *Daemon) cancelDelivery(ctx context.Context, in *DeliveryPath) (*OrderOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.deliveryTx(ctx, u.ID, func(tx *sqlx.Tx) (orders.Full, error) {
		return d.rules().Cancel(ctx, tx, u.ID, in.OrderID, in.DeliveryID, d.now())
	})
}

func (d *Daemon) claimDelivery(ctx context.Context, in *ClaimDeliveryInput) (*OrderOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	var c delivery.Claim
	for _, l := range in.Body.DeliveryLines {
		c.Lines = append(c.Lines, delivery.LineClaim{ID: l.ID, QuantityClaimed: l.QuantityClaimed, ClaimType: l.ClaimType, ClaimComment: l.ClaimComment})
	}
	return d.deliveryTx(ctx, u.ID, func(tx *sqlx.Tx) (orders.Full, error) {
		return d.rules().SendClaim(ctx, tx, u.ID, in.OrderID, in.DeliveryID, c, d.now())
	})
}

func (d *Daemon) reviewDelivery(ctx context.Context, in *ReviewDeliveryInput) (*OrderOutput, error) {
	u := currentUser(ctx)
	review := d.rules().Review
	if u.IsProducer() {
		review = d.rules().ReviewAsProducer
	}
	return d.deliveryTx(ctx, u.ID, func(tx *sqlx.Tx) (orders.Full, error) {
		now := d.now()
		if _, err := review(ctx, tx, u.ID, in.OrderID, in.DeliveryID, *in.Body.Accepted, now); err != nil {
			return orders.Full{}, err
		}
		// An invoiced order's accepted claim is settled at once by a
		// credit note (or a complementary invoice), emailed by the next
		// run of the deliveries job.
		if _, err := billing.SettleOrder(ctx, tx, in.OrderID, now, d.rules().Location); err != nil {
			return orders.Full{}, err
		}
		return orders.Get(ctx, tx, in.OrderID)
	})
}
