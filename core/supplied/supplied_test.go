package supplied_test

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/images"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
)

var (
	ctx = context.Background()
	now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
)

func producer(t *testing.T, db *store.DB, email string) accounts.User {
	t.Helper()
	u := accounts.User{ID: core.NewID(), Type: accounts.Producer, Email: email, EmailKey: email, Name: email,
		PasswordHash: "-", DeliveryDays: "1000000", AddressLine1: "1 rue du Port", CreatedAt: now.UnixMilli(),
		UpdatedAt: now.UnixMilli()}
	if err := accounts.Insert(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// tomme is the Done-when's product: a 1.5 kg piece of a type in kg, AOP.
var tomme = supplied.Input{Type: "tomme-de-savoie", Name: "Tomme de Savoie fermière", Packaging: "pièce",
	UnitQuantity: 1.5, Labels: []string{"aop"}, Months: []int{1, 2, 3, 10, 11, 12}, RefPrice: 14.5}

func write(t *testing.T, db *store.DB, fn func(tx *sqlx.Tx) error) error {
	t.Helper()
	return db.Tx(ctx, fn)
}

// TestProducts: a producer lists, changes and retires its products, on
// both engines; each rule of a product's fields refuses in French and
// changes nothing (PRODUCT §5 "Producers' products").
func TestProducts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dairy := producer(t, db, "laiterie@x.fr")
		other := producer(t, db, "autre@x.fr")
		var p supplied.Product
		if err := write(t, db, func(tx *sqlx.Tx) (err error) {
			p, err = supplied.Create(ctx, tx, dairy.ID, tomme, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if p.Unit != "kg" || p.Family != "fromages" || p.TypeName != "Tomme de Savoie" || p.UnitQuantity != 150 ||
			p.SaleUnit != "pièce de 1,5 kg" || !slices.Equal(p.Labels, []string{"aop"}) || p.RefPrice != 1450 ||
			!slices.Equal(p.Months, []int{1, 2, 3, 10, 11, 12}) || p.Photo != nil ||
			p.DocumentName != "Tomme de Savoie fermière (pièce de 1,5 kg) · AOP" {
			t.Fatalf("created %+v", p)
		}

		t.Run("refusals", func(t *testing.T) {
			with := func(change func(in *supplied.Input)) supplied.Input {
				in := tomme
				in.Name = "Autre tomme"
				in.Labels = slices.Clone(tomme.Labels)
				change(&in)
				return in
			}
			before := storetest.Snapshot(t, db)
			for _, c := range []struct {
				name  string
				in    supplied.Input
				field string
				msg   string
			}{
				{"unknown type", with(func(in *supplied.Input) { in.Type = "durian" }), "productType", supplied.MsgType},
				{"empty name", with(func(in *supplied.Input) { in.Name = " \t" }), "name", supplied.MsgName},
				{"long name", with(func(in *supplied.Input) { in.Name = strings.Repeat("é", 101) }), "name", supplied.MsgName},
				{"name taken, another spelling", with(func(in *supplied.Input) { in.Name = "TOMME de savoie Fermiere" }), "name", supplied.MsgNameTaken},
				{"long packaging", with(func(in *supplied.Input) { in.Packaging = strings.Repeat("p", 41) }), "packaging", supplied.MsgPackaging},
				{"no quantity", with(func(in *supplied.Input) { in.UnitQuantity = 0 }), "unitQuantity", supplied.MsgUnitQuantity},
				{"three decimals", with(func(in *supplied.Input) { in.UnitQuantity = 1.255 }), "unitQuantity", supplied.MsgUnitQuantity},
				{"huge quantity", with(func(in *supplied.Input) { in.UnitQuantity = 10_001 }), "unitQuantity", supplied.MsgUnitQuantity},
				{"no packaging, not 1", with(func(in *supplied.Input) { in.Packaging = "" }), "unitQuantity", supplied.MsgUnitQuantityOne},
				{"half an egg box", with(func(in *supplied.Input) { in.Type = "oeufs-de-poule-plein-air"; in.UnitQuantity = 0.5 }), "unitQuantity", supplied.MsgUnitQuantityInt},
				{"unknown label", with(func(in *supplied.Input) { in.Labels = []string{"aop", "demeter"} }), "labels", supplied.MsgLabel},
				{"organic without certifier", with(func(in *supplied.Input) { in.Labels = []string{"ab"} }), "certifier", supplied.MsgCertifier},
				{"certifier misspelt", with(func(in *supplied.Input) { in.Labels = []string{"ab"}; in.Certifier = "FR-BIO-1" }), "certifier", supplied.MsgCertifier},
				{"organic and in conversion", with(func(in *supplied.Input) { in.Labels = []string{"ab", "conversion"}; in.Certifier = "FR-BIO-01" }), "labels", supplied.MsgBioOrConversion},
				{"cheese in conversion", with(func(in *supplied.Input) { in.Labels = []string{"conversion"}; in.Certifier = "FR-BIO-01" }), "labels", supplied.MsgConversionPlant},
				{"no month", with(func(in *supplied.Input) { in.Months = nil }), "months", supplied.MsgMonths},
				{"month 13", with(func(in *supplied.Input) { in.Months = []int{1, 13} }), "months", supplied.MsgMonths},
				{"negative price", with(func(in *supplied.Input) { in.RefPrice = -1 }), "refPrice", supplied.MsgRefPrice},
				{"price in thousandths", with(func(in *supplied.Input) { in.RefPrice = 1.234 }), "refPrice", supplied.MsgRefPrice},
			} {
				t.Run(c.name, func(t *testing.T) {
					err := write(t, db, func(tx *sqlx.Tx) error {
						_, err := supplied.Create(ctx, tx, dairy.ID, c.in, now)
						return err
					})
					var v *core.ValidationError
					if !errors.As(err, &v) || !slices.Contains(v.Fields, core.FieldError{Field: c.field, Message: c.msg}) {
						t.Fatalf("got %v, want %s: %s", err, c.field, c.msg)
					}
				})
			}
			// Another producer's product is none of this one's.
			for name, fn := range map[string]func(tx *sqlx.Tx) error{
				"update": func(tx *sqlx.Tx) error { _, err := supplied.Update(ctx, tx, other.ID, p.ID, tomme, now); return err },
				"retire": func(tx *sqlx.Tx) error { return supplied.Retire(ctx, tx, other.ID, p.ID, now) },
				"photo":  func(tx *sqlx.Tx) error { _, err := supplied.DeletePhoto(ctx, tx, other.ID, p.ID, now); return err },
			} {
				if err := write(t, db, fn); !errors.Is(err, core.ErrNotFound) {
					t.Errorf("%s another's: %v", name, err)
				}
			}
			// A type in another unit would change what proposals counted.
			err := write(t, db, func(tx *sqlx.Tx) error {
				_, err := supplied.Update(ctx, tx, dairy.ID, p.ID, with(func(in *supplied.Input) { in.Type = "lait-cru-entier"; in.Packaging = "bidon"; in.UnitQuantity = 10 }), now)
				return err
			})
			var v *core.ValidationError
			if !errors.As(err, &v) || v.Fields[0].Message != supplied.MsgTypeUnit {
				t.Errorf("type of another unit: %v", err)
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("refusals changed:\n%s", storetest.Changes(before, after))
			}
		})

		t.Run("organic, update, retire", func(t *testing.T) {
			in := tomme
			in.Labels = []string{"ab", "aop"}
			in.Certifier = " fr-bio-01 "
			in.Packaging = ""
			in.UnitQuantity = 1
			var u supplied.Product
			if err := write(t, db, func(tx *sqlx.Tx) (err error) {
				u, err = supplied.Update(ctx, tx, dairy.ID, p.ID, in, now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if u.Certifier != "FR-BIO-01" || u.SaleUnit != "kg" || !slices.Equal(u.Labels, []string{"ab", "aop"}) ||
				u.DocumentName != "Tomme de Savoie fermière · Bio FR-BIO-01 · AOP" {
				t.Fatalf("updated %+v", u)
			}
			// Its name is free again once retired; the other producer may
			// use it anyway.
			if err := write(t, db, func(tx *sqlx.Tx) error {
				if err := supplied.Retire(ctx, tx, dairy.ID, p.ID, now); err != nil {
					return err
				}
				if _, err := supplied.Create(ctx, tx, other.ID, tomme, now); err != nil {
					return err
				}
				_, err := supplied.Create(ctx, tx, dairy.ID, tomme, now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			list, err := supplied.List(ctx, db, dairy.ID)
			if err != nil || len(list) != 1 || list[0].ID == p.ID {
				t.Fatalf("list after retire: %+v %v", list, err)
			}
			// A proposal still finds the retired one.
			got, err := supplied.ByIDs(ctx, db, []string{p.ID, "none"})
			if err != nil || len(got) != 1 || got[p.ID].Name != tomme.Name {
				t.Fatalf("by ids: %+v %v", got, err)
			}
		})
	})
}

// picture encodes a w×h image in the format named.
func picture(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%max(h, 1), color.RGBA{R: 200, G: uint8(x), B: 40, A: 255})
	}
	var b bytes.Buffer
	var err error
	if format == "png" {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader is a PNG's signature and header declaring w×h pixels, without
// pixels: what a file claiming a huge image looks like.
func pngHeader(w, h uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	for _, v := range []uint32{w, h} {
		b = append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	b = append(b, 8, 6, 0, 0, 0)
	crc := crc32.ChecksumIEEE(b[12:])
	return append(b, byte(crc>>24), byte(crc>>16), byte(crc>>8), byte(crc))
}

// TestPhoto: a product's photo is made into three sizes bounded by their
// side whatever was sent, replaces the previous one (whose images are
// gone), and is served only as a product's; what is not an image within
// core/images' bounds is refused before any write (PRODUCT §3).
func TestPhoto(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, images.MsgEmpty},
		{"text", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), images.MsgNotImage},
		{"truncated jpeg", picture(t, "jpeg", 40, 40)[:60], images.MsgNotImage},
		{"declares 100000 px wide", pngHeader(100_000, 10), images.MsgTooLarge},
		{"over 5 MB", append(picture(t, "png", 10, 10), make([]byte, images.MaxBytes)...), images.MsgTooBig},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := supplied.MakePhoto(ctx, "photo", c.data)
			var v *core.ValidationError
			if !errors.As(err, &v) || v.Fields[0] != (core.FieldError{Field: "photo", Message: c.msg}) {
				t.Fatalf("got %v, want %s", err, c.msg)
			}
		})
	}

	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dairy := producer(t, db, "laiterie@x.fr")
		var p supplied.Product
		if err := write(t, db, func(tx *sqlx.Tx) (err error) {
			p, err = supplied.Create(ctx, tx, dairy.ID, tomme, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var first supplied.Product
		for i, c := range []struct {
			format string
			w, h   int
			sides  [3]int // the longest side of small, medium, large
		}{
			{"png", 3000, 2000, [3]int{160, 480, 1200}},
			{"jpeg", 300, 900, [3]int{160, 480, 900}},
			{"jpeg", 90, 60, [3]int{90, 90, 90}}, // never scaled up
		} {
			ph, err := supplied.MakePhoto(ctx, "photo", picture(t, c.format, c.w, c.h))
			if err != nil {
				t.Fatal(err)
			}
			var got supplied.Product
			if err := write(t, db, func(tx *sqlx.Tx) (err error) {
				got, err = supplied.SetPhoto(ctx, tx, dairy.ID, p.ID, ph, now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = got
			}
			for j, url := range []string{got.Photo.Small, got.Photo.Medium, got.Photo.Large} {
				img, err := supplied.PhotoImage(ctx, db, strings.TrimPrefix(url, supplied.PhotoPath))
				if err != nil {
					t.Fatal(err)
				}
				if side := max(img.Width, img.Height); side != c.sides[j] || img.MediaType != "image/jpeg" {
					t.Errorf("%dx%d size %d: %dx%d %s", c.w, c.h, j, img.Width, img.Height, img.MediaType)
				}
				if _, _, err := image.Decode(bytes.NewReader(img.Data)); err != nil {
					t.Errorf("size %d: %v", j, err)
				}
			}
		}
		// The first photo's images are gone: its URLs answer nothing.
		if _, err := supplied.PhotoImage(ctx, db, strings.TrimPrefix(first.Photo.Large, supplied.PhotoPath)); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("replaced photo: %v", err)
		}
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM images`); err != nil || n != 3 {
			t.Errorf("%d images kept, want 3 (%v)", n, err)
		}
		// An image that is no product's photo is not served as one.
		other, err := images.Process(ctx, "photo", picture(t, "png", 10, 10), images.Photo)
		if err != nil {
			t.Fatal(err)
		}
		if err := write(t, db, func(tx *sqlx.Tx) (err error) {
			other, err = images.Insert(ctx, tx, dairy.ID, other, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := supplied.PhotoImage(ctx, db, other.ID); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("another image: %v", err)
		}
		// Deleting the photo removes its images.
		if err := write(t, db, func(tx *sqlx.Tx) error {
			got, err := supplied.DeletePhoto(ctx, tx, dairy.ID, p.ID, now)
			if err == nil && got.Photo != nil {
				t.Errorf("photo kept: %+v", got.Photo)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM images`); err != nil || n != 1 {
			t.Errorf("%d images kept, want 1 (%v)", n, err)
		}
	})
}

// TestDocumentName: how documents name a product and its labels; an
// organic mention never without its certifier's code number.
func TestDocumentName(t *testing.T) {
	for _, c := range []struct {
		packaging string
		qty       decimal.Dec
		unit      string
		labels    []string
		certifier string
		want      string
	}{
		{"", 100, "kg", nil, "", "Produit"},
		{"pièce", 150, "kg", []string{"aop"}, "", "Produit (pièce de 1,5 kg) · AOP"},
		{"carton", 600, "bouteille", []string{"igp", "ab"}, "FR-BIO-10", "Produit (carton de 6 bouteilles) · Bio FR-BIO-10 · IGP"},
		{"", 100, "un", []string{"conversion", "hve"}, "FR-BIO-16", "Produit · En conversion vers l'agriculture biologique FR-BIO-16 · HVE"},
		{"", 100, "kg", []string{"ab", "label-rouge"}, "", "Produit · Label Rouge"},
	} {
		if got := supplied.DocumentName("Produit", c.packaging, c.qty, c.unit, c.labels, c.certifier); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
