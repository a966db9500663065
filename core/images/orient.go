package images

import (
	"bytes"
	"image"

	exif "github.com/dsoprea/go-exif/v3"
)

// MsgHEIC refuses a HEIC/HEIF photo (an iPhone's default format), which
// Go cannot decode: the phone can send JPEG instead.
const MsgHEIC = "Les photos HEIC (format des iPhone) ne sont pas lisibles ici : envoyez la photo en JPEG " +
	"(sur l'iPhone, Réglages > Appareil photo > Formats > « Le plus compatible »), ou une capture d'écran de la photo."

// heifBrands are the ISO BMFF brands of HEIC and HEIF files (ISO/IEC
// 23008-12): a file whose ftyp box names one is a HEIC photo.
var heifBrands = [][]byte{
	[]byte("heic"), []byte("heix"), []byte("hevc"), []byte("hevx"), []byte("heim"),
	[]byte("heis"), []byte("hevm"), []byte("hevs"), []byte("mif1"), []byte("msf1"),
}

// isHEIF reports whether data starts as a HEIC/HEIF file: an ftyp box
// whose major brand, or one of its first compatible brands, is HEIF's.
func isHEIF(data []byte) bool {
	if len(data) < 16 || !bytes.Equal(data[4:8], []byte("ftyp")) {
		return false
	}
	end := min(len(data), 64)
	for i := 8; i+4 <= end; i += 4 {
		if i == 12 {
			continue // the minor version
		}
		for _, b := range heifBrands {
			if bytes.Equal(data[i:i+4], b) {
				return true
			}
		}
	}
	return false
}

// orientationTag is EXIF's Orientation (TIFF tag 274) of the main image.
const orientationTag = 0x0112

// orientation reads the EXIF orientation of a JPEG's main image, 1 to 8
// (1: as stored), with github.com/dsoprea/go-exif; 1 when the file has
// none or it does not parse. It never panics: whatever the file holds, a
// photo is at worst kept as stored.
func orientation(data []byte) (o int) {
	defer func() {
		if recover() != nil {
			o = 1
		}
	}()
	raw, err := exif.SearchAndExtractExif(data)
	if err != nil {
		return 1
	}
	tags, _, err := exif.GetFlatExifData(raw, &exif.ScanOptions{})
	if err != nil {
		return 1
	}
	for _, t := range tags {
		if t.TagId != orientationTag || t.IfdPath != "IFD" {
			continue
		}
		if v, ok := t.Value.([]uint16); ok && len(v) > 0 && v[0] >= 1 && v[0] <= 8 {
			return int(v[0])
		}
		return 1
	}
	return 1
}

// orient turns src, stored with EXIF orientation o, upright: the
// mirrorings and quarter turns of TIFF 6.0's Orientation (2 mirrors
// left-right, 3 turns half round, 4 mirrors top-bottom, 5 transposes, 6
// turns a quarter clockwise, 7 transverses, 8 turns a quarter
// anticlockwise). Orientations 5 to 8 swap width and height.
func orient(src *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return src
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		for x := range dw {
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			si := src.PixOffset(b.Min.X+sx, b.Min.Y+sy)
			di := dst.PixOffset(x, y)
			copy(dst.Pix[di:di+4], src.Pix[si:si+4])
		}
	}
	return dst
}
