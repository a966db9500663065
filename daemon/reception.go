package daemon

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/delivery"
	"primeur/core/images"
	"primeur/core/orders"
)

// maxReceptionBody bounds a reception's body: its photos travel in it,
// base64, each at most images.MaxBytes once decoded; the phone sends
// them scaled down (a few hundred KB), so this is room for a few full ones.
const maxReceptionBody = 16 << 20

// ReceivedLineInput is what the shop's reception says of one line.
type ReceivedLineInput struct {
	ID               string   `json:"_id" required:"false" maxLength:"100" doc:"Delivery line id. Needed: every line of the delivery once"`
	QuantityReceived *float64 `json:"quantityReceived,omitempty" doc:"Quantity received in the product's unit (2 decimals for kg, whole pieces): the note's quantity for a line ticked. Needed (422 without it)" example:"7.5"`
	ReceptionReason  *string  `json:"receptionReason,omitempty" maxLength:"20" doc:"quantity (missing) or quality (refused); needed when the quantity received differs from the note's" example:"quantity"`
	ReceptionComment *string  `json:"receptionComment,omitempty" maxLength:"5000" doc:"Optional comment (500 characters at most)"`
	Photo            []byte   `json:"photo,omitempty" doc:"A photo of the problem, base64: JPEG, PNG or WebP, 5 MB and 30 million pixels at most; kept as a JPEG of 1600 px at most, without its metadata"`
}

// ReceiveDeliveryInput is the shop's reception of a delivery.
type ReceiveDeliveryInput struct {
	DeliveryPath
	Body struct {
		Key           string              `json:"key" required:"false" maxLength:"200" doc:"Idempotency key made by the phone when the reception was typed (8 to 100 letters, digits, - or _): sent again, the same reception changes nothing and answers the order" example:"0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"`
		ReceivedBy    string              `json:"receivedBy" required:"false" maxLength:"1000" doc:"Who received the delivery, typed (100 characters at most). Needed" example:"Léa Martin"`
		ReceivedAt    *time.Time          `json:"receivedAt,omitempty" doc:"RFC 3339: when the reception was typed on the phone (offline, it is sent later, before or after the lock); kept when it falls on the delivery's date and is not in the future, else the time the server records it"`
		Signature     []byte              `json:"signature,omitempty" doc:"The drawn signature, base64 PNG (an image as the photos are; kept as a PNG of 800 px at most)"`
		DeliveryLines []ReceivedLineInput `json:"deliveryLines" required:"false" maxItems:"200" doc:"Every line of the delivery, once"`
	}
}

func (d *Daemon) registerReception(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "receive-delivery", Method: http.MethodPost, Path: "/deliveries/reception/{orderId}/{deliveryId}",
		Tags:    []string{"Deliveries"},
		Summary: "Record the shop's reception of a delivery, typed on its phone (shops)",
		Description: "From when the delivery is planned until the end of its claim window (two working days after its " +
			"date), before or after its lock: receiving is not a change of the order. The delivery is done once received " +
			"and its sent quantities stay the note's, what the invoice bills; the lines that differ from the note — each " +
			"saying why (quantity missing or quality refused), with a comment and a photo — are the shop's claim " +
			"(received minus sent), which the producer accepts or refuses (review-delivery) and a credit note settles " +
			"once accepted. A cancelled delivery, a done one past its window, or differences beside a claim already " +
			"on the delivery are refused (409). The note shows \"reçu le … par …\". Photos and the signature are " +
			"decoded as images and encoded again (PRODUCT §16 \"Reception\"); anything else is refused (422). Sent " +
			"again with the same key — a queue drained twice, at any time — it changes nothing and answers " +
			"the order; a delivery already received with another key is refused (409). Answers the order.",
		MaxBodyBytes: maxReceptionBody,
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict,
			http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.receiveDelivery)
}

func (d *Daemon) receiveDelivery(ctx context.Context, in *ReceiveDeliveryInput) (*OrderOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	rc := delivery.Reception{Key: in.Body.Key, By: in.Body.ReceivedBy, At: in.Body.ReceivedAt}
	// The pictures are made before the transaction: the expensive part.
	if len(in.Body.Signature) > 0 {
		img, err := images.Process(ctx, "signature", in.Body.Signature, images.Signature)
		if err != nil {
			return nil, err
		}
		rc.Signature = &img
	}
	for i, l := range in.Body.DeliveryLines {
		rl := delivery.ReceivedLine{ID: l.ID, Received: l.QuantityReceived, Reason: l.ReceptionReason, Comment: l.ReceptionComment}
		if len(l.Photo) > 0 {
			img, err := images.Process(ctx, fmt.Sprintf("deliveryLines[%d].photo", i), l.Photo, images.Photo)
			if err != nil {
				return nil, err
			}
			rl.Photo = &img
		}
		rc.Lines = append(rc.Lines, rl)
	}
	return d.deliveryTx(ctx, u.ID, func(tx *sqlx.Tx) (orders.Full, error) {
		return d.rules().Receive(ctx, tx, u.ID, in.OrderID, in.DeliveryID, rc, d.now())
	})
}

// printImage serves GET /print/image/{imageId}: a picture of a reception
// (a line's photo, the signature), to the two parties of its delivery.
func (d *Daemon) printImage(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	img, err := delivery.ReceptionImage(r.Context(), d.db, u.ID, r.PathValue("imageId"))
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", img.MediaType)
	h.Set("Content-Length", strconv.Itoa(len(img.Data)))
	// Private: the service worker may keep it for the reception screen
	// offline, and clears it at logout; no shared cache ever does.
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", img.ID+extension(img.MediaType)))
	_, _ = w.Write(img.Data)
}

func extension(mediaType string) string {
	if mediaType == "image/png" {
		return ".png"
	}
	return ".jpg"
}
