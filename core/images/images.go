// Package images turns a picture a user sends (a photo of a problem at a
// delivery's reception, a drawn signature; later a product's photo) into
// one Primeur keeps: the bytes are decoded as an image — anything that
// does not decode as JPEG, PNG or WebP is refused in French — within
// bounds set before a pixel is decoded (bytes, then the dimensions the
// header declares), scaled down to fit a side, and encoded again by Go's
// own encoders, upright from the photo's EXIF orientation (read with
// github.com/dsoprea/go-exif; a HEIC photo, which Go cannot decode, is
// refused with MsgHEIC). What is kept is therefore a fresh JPEG or PNG made from
// pixels only: no metadata of the sender's file (EXIF, a position, a
// comment) and nothing a browser could take for another kind of file.
// Decoding goes through a gate (core/limit) so that a burst of uploads
// holds a bounded amount of memory.
//
// The images are stored in the database (table images, migration 00053),
// beside the rows that name them, so that a backup, a restore and every
// replica have them (docs/SECURITY.md "Pictures").
package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP for image.Decode

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/store"
)

// Bounds of what is accepted.
const (
	// MaxBytes bounds the file sent.
	MaxBytes = 5 << 20
	// MaxPixels bounds the dimensions the file declares, checked before
	// its pixels are decoded (a small file may declare a huge image).
	MaxPixels = 30_000_000
	// MaxSide bounds the longest side of a decoded image.
	MaxSide = 12_000
)

// French refusals.
const (
	MsgNotImage = "Ce fichier n'est pas une image lisible : envoyez une photo JPEG, PNG ou WebP."
	MsgTooBig   = "L'image dépasse 5 Mo : prenez une photo moins lourde."
	MsgTooLarge = "L'image est trop grande (plus de 30 millions de pixels) : prenez une photo moins grande."
	MsgEmpty    = "L'image envoyée est vide."
	MsgBusy     = "D'autres images sont en cours de traitement. Veuillez réessayer dans quelques instants."
)

// Kind is what an image is for: it decides its size and format.
type Kind struct {
	// Side is the longest side kept, in pixels; a larger image is scaled
	// down to it.
	Side int
	// PNG keeps the image as PNG (a drawing); else JPEG (a photo).
	PNG bool
}

var (
	// Photo is a photograph: JPEG, 1600 pixels at most on its longest
	// side, quality 82 (about 200–400 KB).
	Photo = Kind{Side: 1600}
	// Signature is a drawn signature: PNG on white, 800 pixels at most.
	Signature = Kind{Side: 800, PNG: true}
)

// jpegQuality is the quality photos are encoded with.
const jpegQuality = 82

// Image is a picture as Primeur keeps it.
type Image struct {
	ID        string `db:"id"`
	OwnerID   string `db:"owner_id"`
	MediaType string `db:"media_type"`
	Width     int    `db:"width"`
	Height    int    `db:"height"`
	Data      []byte `db:"data"`
	CreatedAt int64  `db:"created_at"`
}

// gate bounds the decodings at once: each may hold up to MaxPixels × 4
// bytes while it runs.
var gate = limit.NewGate("images", max(1, runtime.NumCPU()/2), 10*time.Second, MsgBusy)

// Process checks data as an image and makes the image kept for kind. A
// refusal is core.Invalid(field, French message) (core.ErrTooLarge's
// message for a file over MaxBytes); nothing else is returned for what a
// user sends. It runs outside any transaction: it is the expensive part.
func Process(ctx context.Context, field string, data []byte, kind Kind) (Image, error) {
	switch {
	case len(data) == 0:
		return Image{}, core.Invalid(field, MsgEmpty)
	case len(data) > MaxBytes:
		return Image{}, core.Invalid(field, MsgTooBig)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if isHEIF(data) {
			return Image{}, core.Invalid(field, MsgHEIC)
		}
		return Image{}, core.Invalid(field, MsgNotImage)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSide || cfg.Height > MaxSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		if cfg.Width <= 0 || cfg.Height <= 0 {
			return Image{}, core.Invalid(field, MsgNotImage)
		}
		return Image{}, core.Invalid(field, MsgTooLarge)
	}
	var out Image
	err = gate.Do(ctx, func() error {
		src, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			return core.Invalid(field, MsgNotImage)
		}
		o := 1
		if format == "jpeg" {
			o = orientation(data) // a phone's photo, stored as its sensor saw it
		}
		out, err = encode(src, kind, o)
		return err
	})
	if err != nil {
		var v *core.ValidationError
		if errors.As(err, &v) || errors.Is(err, core.ErrBusy) {
			return Image{}, err
		}
		return Image{}, fmt.Errorf("images: %w", err)
	}
	return out, nil
}

// encode scales src down to fit kind's side, on white (a transparent
// pixel becomes white, as on paper), turns it upright from its EXIF
// orientation o (orient; 1 keeps it as stored), and encodes it.
func encode(src image.Image, kind Kind, o int) (Image, error) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > kind.Side || h > kind.Side {
		if w >= h {
			h = max(1, h*kind.Side/w)
			w = kind.Side
		} else {
			w = max(1, w*kind.Side/h)
			h = kind.Side
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	dst = orient(dst, o)
	w, h = dst.Bounds().Dx(), dst.Bounds().Dy()
	var buf bytes.Buffer
	img := Image{Width: w, Height: h}
	if kind.PNG {
		img.MediaType = "image/png"
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, dst); err != nil {
			return Image{}, fmt.Errorf("encode png: %w", err)
		}
	} else {
		img.MediaType = "image/jpeg"
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: jpegQuality}); err != nil {
			return Image{}, fmt.Errorf("encode jpeg: %w", err)
		}
	}
	img.Data = buf.Bytes()
	return img, nil
}

// Insert stores img for ownerID and returns it with its id.
func Insert(ctx context.Context, q store.Q, ownerID string, img Image, now time.Time) (Image, error) {
	img.ID = core.NewID()
	img.OwnerID = ownerID
	img.CreatedAt = now.UnixMilli()
	if _, err := store.Exec(ctx, q, `INSERT INTO images (id, owner_id, media_type, width, height, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, img.ID, img.OwnerID, img.MediaType, img.Width, img.Height, img.Data, img.CreatedAt); err != nil {
		return Image{}, fmt.Errorf("images: insert: %w", err)
	}
	return img, nil
}

// Get reads an image; a missing one is core.ErrNotFound. Who may see it
// is the caller's rule (the package that names the image).
func Get(ctx context.Context, q store.Q, id string) (Image, error) {
	var img Image
	err := store.Get(ctx, q, &img, `SELECT id, owner_id, media_type, width, height, data, created_at
		FROM images WHERE id = ?`, id)
	if store.IsNotFound(err) {
		return Image{}, fmt.Errorf("images: %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Image{}, fmt.Errorf("images: get %s: %w", id, err)
	}
	return img, nil
}

// IDsOf lists the ids of the images ownerID made, oldest first: what its
// data export holds (core/mydata), read one at a time with Get.
func IDsOf(ctx context.Context, q store.Q, ownerID string) ([]string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM images WHERE owner_id = ? ORDER BY created_at, id`, ownerID); err != nil {
		return nil, fmt.Errorf("images: of %s: %w", ownerID, err)
	}
	return ids, nil
}

// Ext is the file name extension of the image's type.
func (img Image) Ext() string {
	if img.MediaType == "image/png" {
		return ".png"
	}
	return ".jpg"
}
