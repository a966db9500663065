package delivery_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/images"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
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

// TestReceive: the shop's reception on its phone (PRODUCT §16
// "Reception"), on both engines: ticks and a short line become the sent
// quantities through the shop's one write, the short line keeps its reason
// and photo for the producer, a reception sent again changes nothing (also
// past the lock), and every refusal changes nothing.
func TestReceive(t *testing.T) {
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

		refusals := []struct {
			name string
			shop string
			rc   func() delivery.Reception
			now  time.Time
			want any
		}{
			{"another shop", fx.other.ID, func() delivery.Reception { return good("k-other-shop") }, morning, core.ErrNotFound},
			{"the producer", w.Farm.ID, func() delivery.Reception { return good("k-the-farm") }, morning, core.ErrNotFound},
			{"no key", w.Shop.ID, func() delivery.Reception { return good("") }, morning, delivery.MsgReceptionKey},
			{"a key with a quote", w.Shop.ID, func() delivery.Reception { return good("abc'defgh") }, morning, delivery.MsgReceptionKey},
			{"no name", w.Shop.ID, func() delivery.Reception { rc := good("k-no-name-1"); rc.By = "  "; return rc }, morning, delivery.MsgReceivedBy},
			{"a line left out", w.Shop.ID, func() delivery.Reception {
				rc := good("k-line-left")
				rc.Lines = rc.Lines[:1]
				return rc
			}, morning, delivery.MsgReceptionLine},
			{"a line without quantity", w.Shop.ID, func() delivery.Reception {
				rc := good("k-no-quantity")
				rc.Lines[0].Received = nil
				return rc
			}, morning, delivery.MsgReceptionLine},
			{"a short line without reason", w.Shop.ID, func() delivery.Reception {
				rc := good("k-no-reason")
				rc.Lines[1].Reason = nil
				return rc
			}, morning, delivery.MsgReceptionReason},
			{"an unknown reason", w.Shop.ID, func() delivery.Reception {
				rc := good("k-bad-reason")
				rc.Lines[1].Reason = s("weather")
				return rc
			}, morning, delivery.MsgReceptionReason},
			{"a line twice", w.Shop.ID, func() delivery.Reception {
				rc := good("k-line-twice")
				rc.Lines = append(rc.Lines, rc.Lines[0])
				return rc
			}, morning, delivery.MsgDuplicate},
			{"a negative quantity", w.Shop.ID, func() delivery.Reception {
				rc := good("k-negative-1")
				rc.Lines[1].Received = f(-1)
				return rc
			}, morning, delivery.MsgNegative},
			{"half a lettuce", w.Shop.ID, func() delivery.Reception {
				rc := good("k-half-lettuce")
				rc.Lines[0].Received = f(19.5)
				rc.Lines[0].Reason = s(orders.ClaimQuality)
				return rc
			}, morning, delivery.MsgPieces},
			{"after the lock", w.Shop.ID, func() delivery.Reception { return good("k-after-lock") }, at(2026, 11, 23, 12, 0), rules.MsgLocked()},
		}
		before := storetest.Snapshot(t, w.DB)
		for _, tc := range refusals {
			t.Run("refused: "+tc.name, func(t *testing.T) {
				_, err := receive(tc.shop, id, tc.rc(), tc.now)
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
		d := full.Deliveries[0]
		if d.Status != orders.Planned || d.ReceivedAt == nil || *d.ReceivedAt != typed.UnixMilli() || *d.ReceivedBy != "Léa Martin" || d.SignatureID == nil {
			t.Fatalf("reception not recorded: %+v", d.Delivery)
		}
		for _, l := range d.Lines {
			switch l.ID {
			case tomate:
				if l.Sent() != decimal.Dec(750) || *l.Received != 750 || *l.ReceptionReason != orders.ClaimQuantity ||
					*l.ReceptionComment != "Une caisse manquante" || l.PhotoID == nil {
					t.Fatalf("short line: %+v", l)
				}
				img, err := images.Get(ctx, w.DB, *l.PhotoID)
				if err != nil || img.OwnerID != w.Shop.ID || img.MediaType != "image/jpeg" {
					t.Fatalf("photo: %+v %v", img.ID, err)
				}
			case laitue:
				if l.Sent() != decimal.Dec(2000) || *l.Received != 2000 || *l.ReceptionReason != "" || l.PhotoID != nil {
					t.Fatalf("ticked line: %+v", l)
				}
			}
		}
		view := d.View()
		if view.ReceivedBy != "Léa Martin" || view.ReceivedAt != typed.UTC().Format(time.RFC3339) {
			t.Fatalf("view: %+v", view)
		}

		// Sent again — the queue drained twice, or after the lock — it
		// changes nothing and answers the same order.
		received := storetest.Snapshot(t, w.DB)
		for _, when := range []time.Time{morning, at(2026, 11, 23, 15, 0), at(2026, 11, 25, 9, 0)} {
			again, err := receive(w.Shop.ID, id, good("k-first-reception"), when)
			if err != nil {
				t.Fatalf("replay at %s: %v", when, err)
			}
			if again.Deliveries[0].View().ReceivedAt != view.ReceivedAt {
				t.Fatalf("replay answered %+v", again.Deliveries[0].View())
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

		// A time typed on another day than the delivery's is not kept.
		rc.Key, rc.At = "k-other-day", &now
		full, err = receive(w.Shop.ID, other, rc, at(2026, 11, 24, 10, 0))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range full.Deliveries {
			if d.ID == other && *d.ReceivedAt != at(2026, 11, 24, 10, 0).UnixMilli() {
				t.Fatalf("received at %d", *d.ReceivedAt)
			}
		}
	})
}
