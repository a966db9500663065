package sheets

import (
	"archive/zip"
	"bytes"
	"io"
	"path"
	"strings"
)

// oleHeader starts every OLE compound file: an encrypted (password
// protected) Office file, or an Excel 97-2003 .xls.
var oleHeader = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// archive is a checked zip: its entries by name.
type archive struct {
	files map[string]*zip.File
}

// openZip reads a zip's directory and refuses, before anything is
// inflated, too many entries or too much declared content. Then it inflates
// each entry once, without keeping it, to check that it holds exactly its
// declared size and checksum: a damaged or lying entry (a zip bomb
// declaring a small size) would otherwise read as a truncated part, which
// could import half a sheet.
func openZip(data []byte, lim Limits) (*archive, error) {
	if bytes.HasPrefix(data, oleHeader) {
		return nil, ErrEncrypted
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, ErrUnreadable
	}
	if len(zr.File) > lim.Parts {
		return nil, ErrParts
	}
	var total uint64
	for _, e := range zr.File {
		if e.UncompressedSize64 > uint64(lim.Inflated) {
			return nil, ErrInflated
		}
		total += e.UncompressedSize64
	}
	if total > uint64(lim.Inflated) {
		return nil, ErrInflated
	}
	a := &archive{files: make(map[string]*zip.File, len(zr.File))}
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			return nil, ErrUnreadable
		}
		// Go's zip reader fails past the declared size and on a checksum
		// mismatch, so this reads at most the declared sizes checked above.
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return nil, ErrUnreadable
		}
		// Part names are case-insensitive (OOXML), and some writers
		// capitalise them.
		a.files[strings.ToLower(strings.TrimPrefix(e.Name, "/"))] = e
	}
	return a, nil
}

// open opens an entry by its name; ok is false when there is none.
func (a *archive) open(name string) (io.ReadCloser, bool) {
	e, ok := a.files[strings.ToLower(strings.TrimPrefix(path.Clean("/"+name), "/"))]
	if !ok {
		return nil, false
	}
	rc, err := e.Open()
	if err != nil {
		return nil, false
	}
	return rc, true
}

// read reads a whole entry (the small ones: workbook, relationships,
// settings).
func (a *archive) read(name string) ([]byte, bool) {
	rc, ok := a.open(name)
	if !ok {
		return nil, false
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	return data, err == nil
}
