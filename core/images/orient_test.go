package images_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"primeur/core"
	"primeur/core/images"
)

// oriented is a 40×20 JPEG photo, black with its top-left 10×10 corner
// red, carrying an EXIF Orientation of o (an APP1 segment with a TIFF
// header and IFD0's one tag 274, as a phone writes it).
func oriented(t *testing.T, o uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for y := range 20 {
		for x := range 40 {
			c := color.RGBA{0, 0, 0, 255}
			if x < 10 && y < 10 {
				c = color.RGBA{255, 0, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08") // big-endian, IFD0 at 8
	ifd := make([]byte, 2+12+4)
	binary.BigEndian.PutUint16(ifd[0:], 1)      // one entry
	binary.BigEndian.PutUint16(ifd[2:], 0x0112) // Orientation
	binary.BigEndian.PutUint16(ifd[4:], 3)      // SHORT
	binary.BigEndian.PutUint32(ifd[6:], 1)      // one value
	binary.BigEndian.PutUint16(ifd[10:], o)     // in the entry, left-justified
	payload := append(append([]byte("Exif\x00\x00"), tiff...), ifd...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	data := buf.Bytes()
	out := append([]byte{}, data[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, data[2:]...)
}

// TestOrientation: a phone's photo is kept upright from its EXIF
// orientation (PRODUCT §16 "Reception"): each of the eight orientations
// puts the stored top-left corner where the eye sees it, and swaps the
// sides for the quarter turns; no orientation, or an unreadable one, keeps
// the photo as stored.
func TestOrientation(t *testing.T) {
	for _, tc := range []struct {
		o      uint16
		w, h   int
		corner image.Point // where the red corner ends up, as a 10×10 square's centre
	}{
		{1, 40, 20, image.Pt(5, 5)},
		{2, 40, 20, image.Pt(35, 5)},  // mirrored left-right
		{3, 40, 20, image.Pt(35, 15)}, // half a turn
		{4, 40, 20, image.Pt(5, 15)},  // mirrored top-bottom
		{5, 20, 40, image.Pt(5, 5)},   // transposed
		{6, 20, 40, image.Pt(15, 5)},  // a quarter turn clockwise
		{7, 20, 40, image.Pt(15, 35)}, // transversed
		{8, 20, 40, image.Pt(5, 35)},  // a quarter turn anticlockwise
		{9, 40, 20, image.Pt(5, 5)},   // no such orientation: as stored
	} {
		got, err := images.Process(ctx, "photo", oriented(t, tc.o), images.Photo)
		if err != nil {
			t.Fatalf("orientation %d: %v", tc.o, err)
		}
		img, err := jpeg.Decode(bytes.NewReader(got.Data))
		if err != nil {
			t.Fatal(err)
		}
		if got.Width != tc.w || got.Height != tc.h || img.Bounds().Dx() != tc.w || img.Bounds().Dy() != tc.h {
			t.Fatalf("orientation %d: %d×%d, want %d×%d", tc.o, got.Width, got.Height, tc.w, tc.h)
		}
		if r, g, _, _ := img.At(tc.corner.X, tc.corner.Y).RGBA(); r < 0xC000 || g > 0x4000 {
			t.Errorf("orientation %d: the red corner is not at %v", tc.o, tc.corner)
		}
		if bytes.Contains(got.Data, []byte("Exif")) {
			t.Errorf("orientation %d: the EXIF segment was kept", tc.o)
		}
	}
	// A broken EXIF segment keeps the photo as stored.
	broken := oriented(t, 6)
	copy(broken[10:18], "NOTTIFF!")
	if got, err := images.Process(ctx, "photo", broken, images.Photo); err != nil || got.Width != 40 {
		t.Fatalf("a broken EXIF: %+v %v", got.Width, err)
	}
}

// TestHEIC: a HEIC photo, which Go does not decode, is refused with a
// French message that says what to send instead; a file merely starting
// with another ftyp brand is not an image either.
func TestHEIC(t *testing.T) {
	heic := append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), make([]byte, 64)...)
	iphone := append([]byte("\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1heicmiaf"), make([]byte, 64)...)
	mp4 := append([]byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"), make([]byte, 64)...)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"HEIC", heic, images.MsgHEIC},
		{"an iPhone's HEIF", iphone, images.MsgHEIC},
		{"an MP4 video", mp4, images.MsgNotImage},
	} {
		_, err := images.Process(ctx, "photo", tc.data, images.Photo)
		var v *core.ValidationError
		if !errors.As(err, &v) || v.Fields[0].Message != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
