package images_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/images"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var ctx = context.Background()

// JPEG returns a w×h JPEG photo of a gradient, as a phone would send.
func JPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withExif inserts an APP1 Exif segment (holding a GPS-like text) after
// the JPEG's SOI marker.
func withExif(data []byte) []byte {
	payload := append([]byte("Exif\x00\x00"), []byte("GPS 45.899247 6.129384 secret")...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	out := append([]byte{}, data[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, data[2:]...)
}

// hugePNG is a tiny PNG file whose header declares w×h pixels (its IHDR
// rewritten, checksum included): what a decompression bomb looks like.
func hugePNG(t *testing.T, w, h uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// 8-byte signature, then IHDR: length(4) "IHDR"(4) width(4) height(4) ...
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func TestProcess(t *testing.T) {
	t.Run("a photo is scaled down to 1600 px and encoded again, without its metadata", func(t *testing.T) {
		img, err := images.Process(ctx, "photo", withExif(JPEG(t, 3200, 1000)), images.Photo)
		if err != nil {
			t.Fatal(err)
		}
		if img.MediaType != "image/jpeg" || img.Width != 1600 || img.Height != 500 {
			t.Fatalf("got %s %d×%d, want image/jpeg 1600×500", img.MediaType, img.Width, img.Height)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
		if err != nil || format != "jpeg" || cfg.Width != 1600 || cfg.Height != 500 {
			t.Fatalf("stored image decodes as %s %d×%d (%v)", format, cfg.Width, cfg.Height, err)
		}
		if bytes.Contains(img.Data, []byte("Exif")) || bytes.Contains(img.Data, []byte("secret")) {
			t.Fatal("the sender's Exif segment was kept")
		}
	})
	t.Run("a small PNG drawing stays its size, as PNG", func(t *testing.T) {
		var buf bytes.Buffer
		if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 300, 120))); err != nil {
			t.Fatal(err)
		}
		img, err := images.Process(ctx, "signature", buf.Bytes(), images.Signature)
		if err != nil {
			t.Fatal(err)
		}
		if img.MediaType != "image/png" || img.Width != 300 || img.Height != 120 {
			t.Fatalf("got %s %d×%d", img.MediaType, img.Width, img.Height)
		}
	})
	refused := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, images.MsgEmpty},
		{"a text", []byte("<html><script>alert(1)</script></html>"), images.MsgNotImage},
		{"an SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`), images.MsgNotImage},
		{"a PDF", []byte("%PDF-1.7\n1 0 obj\n"), images.MsgNotImage},
		{"a JPEG cut short", JPEG(t, 200, 200)[:300], images.MsgNotImage},
		{"over 5 MB", append(JPEG(t, 10, 10), make([]byte, images.MaxBytes)...), images.MsgTooBig},
		{"declaring 40 000 × 40 000 pixels", hugePNG(t, 40000, 40000), images.MsgTooLarge},
		{"declaring 6000 × 6000 pixels", hugePNG(t, 6000, 6000), images.MsgTooLarge},
		{"declaring 0 pixels", hugePNG(t, 0, 10), images.MsgNotImage},
	}
	for _, tc := range refused {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			_, err := images.Process(ctx, "photo", tc.data, images.Photo)
			var v *core.ValidationError
			if !errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Field != "photo" || v.Fields[0].Message != tc.want {
				t.Fatalf("err = %v, want %q on photo", err, tc.want)
			}
		})
	}
}

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		shop := w.User(accounts.User{Type: accounts.Distributor, Email: "photo@magasin.fr", Name: "Photo"})
		img, err := images.Process(ctx, "photo", JPEG(t, 64, 48), images.Photo)
		if err != nil {
			t.Fatal(err)
		}
		now := time.UnixMilli(1_790_000_000_000)
		stored, err := images.Insert(ctx, db, shop.ID, img, now)
		if err != nil {
			t.Fatal(err)
		}
		got, err := images.Get(ctx, db, stored.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.OwnerID != shop.ID || got.MediaType != "image/jpeg" || got.Width != 64 || !bytes.Equal(got.Data, img.Data) ||
			got.CreatedAt != now.UnixMilli() {
			t.Fatalf("read back %+v", strings.TrimSpace(got.ID))
		}
		if _, err := images.Get(ctx, db, "missing"); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("missing image: %v", err)
		}
	})
}
