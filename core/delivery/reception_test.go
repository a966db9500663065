package delivery_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/images"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// photo is a photo as images.Process makes it from a phone's JPEG.
func photo(t *testing.T) *images.Image {
	t.Helper()
	src := image.NewRGBA(image.Rect(0, 0, 40, 30))
	src.Set(3, 3, color.RGBA{200, 30, 30, 255})
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, nil); err != nil {
		t.Fatal(err)
	}
	img, err := images.Process(ctx, "photo", buf.Bytes(), images.Photo)
	if err != nil {
		t.Fatal(err)
	}
	return &img
}

// deliveryOf is the delivery id of an order.
func deliveryOf(t *testing.T, full orders.Full, id string) orders.FullDelivery {
	t.Helper()
	for _, d := range full.Deliveries {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no delivery %s in the order", id)
	return orders.FullDelivery{}
}

// TestReceive: the shop's reception on its phone (PRODUCT §16
// "Reception"), on both engines. Receiving is not a change of the order:
// the ticked lines and the note keep their sent quantities, the delivery is
// done, and the short line becomes the shop's claim (received minus sent,
// its reason, comment and photo) that the producer reviews. A reception
// typed before the lock and sent after it is taken as typed; sent again it
// changes nothing; every refusal changes nothing.
func TestReceive(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		id := fx.planned("2026-11-23")
		tomate, laitue := w.Line(id, "tomate"), w.Line(id, "laitue")
		morning := at(2026, 11, 23, 9, 30)
		typed := at(2026, 11, 23, 8, 55)
		good := func(key string) delivery.Reception {
			return delivery.Reception{
				Key: key, By: "  Léa Martin ", At: &typed, Signature: photo(t),
				Lines: []delivery.ReceivedLine{
					{ID: laitue, Received: f(20)}, // ticked: as the note says
					{ID: tomate, Received: f(7.5), Reason: s(orders.ClaimQuantity), Comment: s("Une caisse manquante"), Photo: photo(t)},
				},
			}
		}
		receive := func(shop, deliveryID string, rc delivery.Reception, now time.Time) (orders.Full, error) {
			return tx(w.DB, func(q store.Q) (orders.Full, error) {
				return rules.Receive(ctx, q, shop, fx.order, deliveryID, rc, now)
			})
		}
		cancelled := w.Delivery(fx.order, "2026-11-23", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		claimed := fx.done("2026-11-19")
		if _, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.SendClaim(ctx, q, w.Farm.ID, fx.order, claimed,
				claimOf(w, claimed, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-2), ClaimType: s("quality")}), now)
		}); err != nil {
			t.Fatal(err)
		}
		lines := func(id string, tomatoes float64) []delivery.ReceivedLine {
			return []delivery.ReceivedLine{{ID: w.Line(id, "laitue"), Received: f(20)},
				{ID: w.Line(id, "tomate"), Received: f(tomatoes), Reason: s(orders.ClaimQuality)}}
		}

		refusals := []struct {
			name     string
			shop     string
			delivery string
			rc       func() delivery.Reception
			now      time.Time
			want     any
		}{
			{"another shop", fx.other.ID, id, func() delivery.Reception { return good("k-other-shop") }, morning, core.ErrNotFound},
			{"the producer", w.Farm.ID, id, func() delivery.Reception { return good("k-the-farm") }, morning, core.ErrNotFound},
			{"no key", w.Shop.ID, id, func() delivery.Reception { return good("") }, morning, delivery.MsgReceptionKey},
			{"a key with a quote", w.Shop.ID, id, func() delivery.Reception { return good("abc'defgh") }, morning, delivery.MsgReceptionKey},
			{"no name", w.Shop.ID, id, func() delivery.Reception { rc := good("k-no-name-1"); rc.By = "  "; return rc }, morning, delivery.MsgReceivedBy},
			{"a line left out", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-line-left")
				rc.Lines = rc.Lines[:1]
				return rc
			}, morning, delivery.MsgReceptionLine},
			{"a line without quantity", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-no-quantity")
				rc.Lines[0].Received = nil
				return rc
			}, morning, delivery.MsgReceptionLine},
			{"a short line without reason", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-no-reason")
				rc.Lines[1].Reason = nil
				return rc
			}, morning, delivery.MsgReceptionReason},
			{"an unknown reason", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-bad-reason")
				rc.Lines[1].Reason = s("weather")
				return rc
			}, morning, delivery.MsgReceptionReason},
			{"a line twice", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-line-twice")
				rc.Lines = append(rc.Lines, rc.Lines[0])
				return rc
			}, morning, delivery.MsgDuplicate},
			{"a negative quantity", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-negative-1")
				rc.Lines[1].Received = f(-1)
				return rc
			}, morning, delivery.MsgNegative},
			{"half a lettuce", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-half-lettuce")
				rc.Lines[0].Received = f(19.5)
				rc.Lines[0].Reason = s(orders.ClaimQuality)
				return rc
			}, morning, delivery.MsgPieces},
			{"more than ordered", w.Shop.ID, id, func() delivery.Reception {
				rc := good("k-too-many")
				rc.Lines[1].Received = f(10.5)
				return rc
			}, morning, delivery.ClaimAboveMessage(1000, "kg")},
			{"a cancelled delivery", w.Shop.ID, cancelled, func() delivery.Reception {
				return delivery.Reception{Key: "k-cancelled", By: "Léa", Lines: []delivery.ReceivedLine{{ID: w.Line(cancelled, "tomate"), Received: f(10)}}}
			}, morning, delivery.MsgReceptionCancelled},
			{"past the claim window", w.Shop.ID, claimed, func() delivery.Reception {
				return delivery.Reception{Key: "k-too-late", By: "Léa", Lines: lines(claimed, 10)}
			}, at(2026, 11, 24, 9, 0), fmt.Sprintf(delivery.MsgReceptionClosed, "lundi 23 novembre 2026")},
			{"differences beside the producer's claim", w.Shop.ID, claimed, func() delivery.Reception {
				return delivery.Reception{Key: "k-beside-claim", By: "Léa", Lines: lines(claimed, 9)}
			}, at(2026, 11, 20, 15, 0), delivery.MsgReceptionClaimed},
		}
		before := storetest.Snapshot(t, w.DB)
		for _, tc := range refusals {
			t.Run("refused: "+tc.name, func(t *testing.T) {
				_, err := receive(tc.shop, tc.delivery, tc.rc(), tc.now)
				expectRefusal(t, w, before, err, tc.want)
			})
		}
		var v *core.ValidationError
		_, err := receive(w.Shop.ID, id, func() delivery.Reception {
			rc := good("k-negative-2")
			rc.Lines[1].Received = f(-1)
			return rc
		}(), morning)
		if !errors.As(err, &v) || v.Fields[0].Field != "deliveryLines[1].quantityReceived" {
			t.Fatalf("a negative quantity is refused on its field: %v", err)
		}

		full, err := receive(w.Shop.ID, id, good("k-first-reception"), morning)
		if err != nil {
			t.Fatal(err)
		}
		d := deliveryOf(t, full, id)
		if d.Status != orders.Done || d.ReceivedAt == nil || *d.ReceivedAt != typed.UnixMilli() || *d.ReceivedBy != "Léa Martin" || d.SignatureID == nil {
			t.Fatalf("reception not recorded: %+v", d.Delivery)
		}
		if d.ClaimStatus != orders.ClaimSent || d.ClaimBy != orders.ByShop || *d.ClaimSentAt != morning.UnixMilli() {
			t.Fatalf("the short line is not the shop's claim: %+v", d.Delivery)
		}
		for _, l := range d.Lines {
			switch l.ID {
			case tomate:
				if l.Sent() != decimal.Dec(1000) || *l.Received != 750 || *l.ReceptionReason != orders.ClaimQuantity ||
					*l.ReceptionComment != "Une caisse manquante" || l.PhotoID == nil ||
					l.QuantityClaimed != -250 || l.ClaimType != orders.ClaimQuantity || l.ClaimComment != "Une caisse manquante" {
					t.Fatalf("short line: %+v", l)
				}
				img, err := images.Get(ctx, w.DB, *l.PhotoID)
				if err != nil || img.OwnerID != w.Shop.ID || img.MediaType != "image/jpeg" {
					t.Fatalf("photo: %+v %v", img.ID, err)
				}
			case laitue:
				if l.Sent() != decimal.Dec(2000) || *l.Received != 2000 || *l.ReceptionReason != "" || l.PhotoID != nil || l.QuantityClaimed != 0 {
					t.Fatalf("ticked line: %+v", l)
				}
			}
		}
		view := d.View()
		if view.ReceivedBy != "Léa Martin" || view.ReceivedAt != typed.UTC().Format(time.RFC3339) || view.ClaimBy != orders.ByShop {
			t.Fatalf("view: %+v", view)
		}
		feed, err := activity.Feed(ctx, db, w.Farm.ID, "", 1)
		if err != nil || feed[0].Type != activity.ClaimRequest || feed[0].Origin.Name != w.Shop.Name || feed[0].Target.Name != w.Farm.Name ||
			*feed[0].Data.Quantity != -250 || feed[0].Data.Product.Name != "Tomate" {
			t.Fatalf("the producer's feed: %+v %v", feed, err)
		}

		// Sent again — the queue drained twice, or after the lock — it
		// changes nothing and answers the same order.
		received := storetest.Snapshot(t, w.DB)
		for _, when := range []time.Time{morning, at(2026, 11, 23, 15, 0), at(2026, 11, 25, 9, 0), at(2026, 12, 20, 9, 0)} {
			again, err := receive(w.Shop.ID, id, good("k-first-reception"), when)
			if err != nil {
				t.Fatalf("replay at %s: %v", when, err)
			}
			if got := deliveryOf(t, again, id).View(); got.ReceivedAt != view.ReceivedAt {
				t.Fatalf("replay answered %+v", got)
			}
			if after := storetest.Snapshot(t, w.DB); after != received {
				t.Fatalf("a replay changed the database:\n%s", storetest.Changes(received, after))
			}
		}
		// Another reception of the same delivery, or the key on another one.
		_, err = receive(w.Shop.ID, id, good("k-second-reception"), morning)
		expectRefusal(t, w, received, err, "Cette livraison a déjà été réceptionnée le 23/11/2026 à 08h55 par Léa Martin.")
		other := fx.planned("2026-11-24")
		rc := good("k-first-reception")
		rc.Lines = []delivery.ReceivedLine{{ID: w.Line(other, "laitue"), Received: f(20)}, {ID: w.Line(other, "tomate"), Received: f(10)}}
		before = storetest.Snapshot(t, w.DB)
		_, err = receive(w.Shop.ID, other, rc, morning)
		expectRefusal(t, w, before, err, delivery.MsgReceptionKeyUsed)

		// Typed offline at 11:50, before the lock, and sent at 14:00 once
		// the deliveries job has locked the delivery: receiving is not a
		// change of the order, so it is taken, at the time it was typed.
		// A time typed on another day than the delivery's is not kept.
		if _, err := rules.LockDue(ctx, db, at(2026, 11, 24, 12, 5)); err != nil {
			t.Fatal(err)
		}
		offline := at(2026, 11, 24, 11, 50)
		rc.Key, rc.At = "k-typed-offline", &offline
		full, err = receive(w.Shop.ID, other, rc, at(2026, 11, 24, 14, 0))
		if err != nil {
			t.Fatalf("a reception typed before the lock and sent after it: %v", err)
		}
		if d := deliveryOf(t, full, other); *d.ReceivedAt != offline.UnixMilli() || d.Status != orders.Done || d.ClaimStatus != orders.ClaimVoid {
			t.Fatalf("received at %d: %+v", *d.ReceivedAt, d.Delivery)
		}
		third := fx.done("2026-11-24")
		rc = delivery.Reception{Key: "k-other-day", By: "Léa", At: &now, Lines: lines(third, 10)}
		full, err = receive(w.Shop.ID, third, rc, at(2026, 11, 25, 10, 0))
		if err != nil {
			t.Fatal(err)
		}
		if d := deliveryOf(t, full, third); *d.ReceivedAt != at(2026, 11, 25, 10, 0).UnixMilli() {
			t.Fatalf("received at %d", *d.ReceivedAt)
		}
	})
}

// TestShopClaim: the shop's claim, made by its reception, is the
// producer's to answer (PRODUCT §16 "Claims"), on both engines: the
// producer may not send its own over it, the shop may not answer its own,
// silence never accepts a quantity short, and the producer's acceptance is
// billed as any accepted claim — a credit note of the missing quantity.
func TestShopClaim(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		receiveShort := func(date, key string) string {
			id := fx.planned(date)
			if _, err := tx(db, func(q store.Q) (orders.Full, error) {
				return rules.Receive(ctx, q, w.Shop.ID, fx.order, id, delivery.Reception{Key: key, By: "Léa", Lines: []delivery.ReceivedLine{
					{ID: w.Line(id, "laitue"), Received: f(20)},
					{ID: w.Line(id, "tomate"), Received: f(8), Reason: s(orders.ClaimQuality), Comment: s("tomates abîmées")},
				}}, at(2026, 11, 23, 9, 0))
			}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		id := receiveShort("2026-11-23", "k-shop-claim-1")
		answer := func(producer bool, who string, ok bool, when time.Time) (orders.Full, error) {
			return tx(db, func(q store.Q) (orders.Full, error) {
				if producer {
					return rules.ReviewAsProducer(ctx, q, who, fx.order, id, ok, when)
				}
				return rules.Review(ctx, q, who, fx.order, id, ok, when)
			})
		}
		before := storetest.Snapshot(t, db)
		_, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.SendClaim(ctx, q, w.Farm.ID, fx.order, id,
				claimOf(w, id, delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-1), ClaimType: s("quality")}), at(2026, 11, 23, 15, 0))
		})
		expectRefusal(t, w, before, err, delivery.MsgShopClaimPending)
		_, err = answer(false, w.Shop.ID, true, at(2026, 11, 23, 15, 0))
		expectRefusal(t, w, before, err, delivery.MsgNoClaim)
		for _, who := range []string{fx.farm2.ID, w.Shop.ID} {
			_, err = answer(true, who, true, at(2026, 11, 23, 15, 0))
			expectRefusal(t, w, before, err, core.ErrNotFound)
		}
		// Silence is not acceptance: a month later it still waits.
		if n, err := rules.Autovalidate(ctx, db, at(2026, 12, 23, 9, 0)); err != nil || n != 0 {
			t.Fatalf("autovalidated %d: %v", n, err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("silence accepted the shop's claim:\n%s", storetest.Changes(before, after))
		}

		if _, err := answer(true, w.Farm.ID, true, at(2026, 11, 23, 16, 0)); err != nil {
			t.Fatal(err)
		}
		if got := w.Get(id); got.ClaimStatus != orders.ClaimAccepted || got.ClaimBy != orders.ByShop {
			t.Fatalf("answered %+v", got.Delivery)
		}
		feed, err := activity.Feed(ctx, db, w.Shop.ID, "", 1)
		if err != nil || feed[0].Type != activity.ClaimReview || !*feed[0].Data.Outcome || feed[0].Origin.Name != w.Farm.Name || feed[0].Target.Name != w.Shop.Name {
			t.Fatalf("the shop's feed: %+v %v", feed, err)
		}
		// Answered once.
		before = storetest.Snapshot(t, db)
		_, err = answer(true, w.Farm.ID, false, at(2026, 11, 23, 17, 0))
		expectRefusal(t, w, before, err, delivery.MsgNoClaim)

		// Refused, another one bills what was sent.
		refused := receiveShort("2026-11-24", "k-shop-claim-2")
		if _, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.ReviewAsProducer(ctx, q, w.Farm.ID, fx.order, refused, false, at(2026, 11, 24, 16, 0))
		}); err != nil {
			t.Fatal(err)
		}
		// Billed: the month's invoice bills what was sent (10 kg of
		// tomatoes on each delivery) and the accepted claim's credit note
		// takes the 2 kg refused off, with the shop's reason; the refused
		// claim none.
		var inv *billing.Invoice
		if err := db.Tx(ctx, func(q *sqlx.Tx) error {
			var err error
			inv, err = billing.Issue(ctx, q, fx.order, at(2026, 11, 30, 21, 0), rules.Location)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var tomatoes decimal.Dec
		for _, l := range inv.Lines {
			if l.ProductID == "tomate" {
				tomatoes += l.Quantity
			}
		}
		if tomatoes != 2000 {
			t.Fatalf("invoiced %v kg of tomatoes, want 20", tomatoes)
		}
		var credits []struct {
			DeliveryID string      `db:"delivery_id"`
			Quantity   decimal.Dec `db:"quantity"`
			Comment    string      `db:"claim_comment"`
		}
		if err := store.Select(ctx, db, &credits, `SELECT d.delivery_id, l.quantity, l.claim_comment FROM documents d
			JOIN document_lines l ON l.document_id = d.id WHERE d.kind = 'credit'`); err != nil {
			t.Fatal(err)
		}
		if len(credits) != 1 || credits[0].DeliveryID != id || credits[0].Quantity != 200 || credits[0].Comment != "tomates abîmées" {
			t.Fatalf("credit notes %+v", credits)
		}
	})
}
