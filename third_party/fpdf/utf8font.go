// Copyright ©2026 The go-pdf Authors. All rights reserved.
// Use of this source code is governed by a MIT-style
// license that can be found in the LICENSE file.

package fpdf

import (
	"container/list"
	"encoding/binary"
	"errors"
	"sort"
	"sync"
)

// UTF8Font is a UTF-8 TrueType font parsed once by ParseUTF8Font, to be
// added to any number of documents with AddUTF8FontParsed instead of
// AddUTF8FontFromBytes parsing it again for each.
//
// The documents share its parsed tables, and the subsets of it they embed:
// the last UTF8FontSubsets subsets made (each keyed by the set of runes a
// document used) are kept and reused by any document using the same runes.
// A UTF8Font is safe for concurrent use by documents in several goroutines;
// the documents are byte for byte the ones AddUTF8FontFromBytes makes.
type UTF8Font struct {
	desc     FontDescType
	up, ut   int
	cw       []int         // widths by rune, read only
	prepared *utf8FontFile // ready to cut (prepareCut); never modified

	mu      sync.Mutex
	ids     map[string]string        // font ID by font key
	subsets map[string]*list.Element // of lru, by runes key
	lru     list.List                // *utf8Subset, most recently used first
}

// UTF8FontSubsets is how many subsets of a font a UTF8Font keeps.
const UTF8FontSubsets = 32

// utf8Subset is the subset of a font a document embeds, as it writes it.
type utf8Subset struct {
	key      string
	length1  int    // length of the TrueType subset
	fontFile []byte // the subset, compressed
	cidToGid []byte // its CIDToGIDMap, compressed
	lastRune int    // the highest rune used
	widths   string // the /W array of the CID font, when made with the subset
}

// ParseUTF8Font parses a UTF-8 TrueType font for AddUTF8FontParsed. The
// font keeps utf8Bytes, which must not be modified afterwards.
func ParseUTF8Font(utf8Bytes []byte) (*UTF8Font, error) {
	metrics := newUTF8Font(&fileReader{readerPosition: 0, array: utf8Bytes})
	if err := metrics.parseFile(); err != nil {
		return nil, err
	}
	font := &UTF8Font{
		desc: FontDescType{
			Ascent:       int(metrics.Ascent),
			Descent:      int(metrics.Descent),
			CapHeight:    metrics.CapHeight,
			Flags:        metrics.Flags,
			FontBBox:     metrics.Bbox,
			ItalicAngle:  metrics.ItalicAngle,
			StemV:        metrics.StemV,
			MissingWidth: round(metrics.DefaultWidth),
		},
		up:       int(round(metrics.UnderlinePosition)),
		ut:       round(metrics.UnderlineThickness),
		cw:       metrics.CharWidths,
		prepared: newUTF8Font(&fileReader{readerPosition: 0, array: utf8Bytes}),
		ids:      map[string]string{},
		subsets:  map[string]*list.Element{},
	}
	if !font.prepared.prepareCut() {
		return nil, errors.New("font does not have cmap for Unicode")
	}
	return font, nil
}

// AddUTF8FontParsed imports a UTF-8 TrueType font parsed by ParseUTF8Font
// and makes it available in the document, as AddUTF8FontFromBytes does
// with the same bytes, without parsing them again. See AddFont for details
// about familyStr and styleStr.
func (f *Fpdf) AddUTF8FontParsed(familyStr, styleStr string, font *UTF8Font) {
	if f.err != nil {
		return
	}
	familyStr = fontFamilyEscape(familyStr)
	fontkey := getFontKey(familyStr, styleStr)
	if _, ok := f.fonts[fontkey]; ok {
		return
	}
	var sbarr map[int]int
	if f.aliasNbPagesStr == "" {
		sbarr = makeSubsetRange(57)
	} else {
		sbarr = makeSubsetRange(32)
	}
	def := fontDefType{
		Tp:        "UTF8",
		Name:      fontkey,
		Desc:      font.desc,
		Up:        font.up,
		Ut:        font.ut,
		Cw:        font.cw,
		usedRunes: sbarr,
		utf8Font:  font,
	}
	var err error
	if def.i, err = font.id(def); err != nil {
		f.err = err
		return
	}
	f.fonts[fontkey] = def
}

// id is generateFontID(def), computed once per font key.
func (font *UTF8Font) id(def fontDefType) (string, error) {
	font.mu.Lock()
	id, ok := font.ids[def.Name]
	font.mu.Unlock()
	if ok {
		return id, nil
	}
	id, err := generateFontID(def)
	if err != nil {
		return "", err
	}
	font.mu.Lock()
	font.ids[def.Name] = id
	font.mu.Unlock()
	return id, nil
}

// subset returns the subset of the font with the runes of usedRunes (its
// values), made once for any documents using the same runes.
func (font *UTF8Font) subset(usedRunes map[int]int) *utf8Subset {
	key := runesKey(usedRunes)
	font.mu.Lock()
	if e, ok := font.subsets[key]; ok {
		font.lru.MoveToFront(e)
		font.mu.Unlock()
		return e.Value.(*utf8Subset)
	}
	font.mu.Unlock()

	s := makeUTF8Subset(font.prepared.cutCopy(), usedRunes)
	s.key = key
	s.widths = cidFontWidths(font.cw, usedRunes, s.lastRune)
	font.mu.Lock()
	defer font.mu.Unlock()
	if e, ok := font.subsets[key]; ok { // made meanwhile by another document
		font.lru.MoveToFront(e)
		return e.Value.(*utf8Subset)
	}
	font.subsets[key] = font.lru.PushFront(s)
	if font.lru.Len() > UTF8FontSubsets {
		oldest := font.lru.Back()
		font.lru.Remove(oldest)
		delete(font.subsets, oldest.Value.(*utf8Subset).key)
	}
	return s
}

// runesKey identifies the set of the values of usedRunes, which is all a
// subset depends on.
func runesKey(usedRunes map[int]int) string {
	runes := make([]int, 0, len(usedRunes))
	for _, r := range usedRunes {
		runes = append(runes, r)
	}
	sort.Ints(runes)
	key := make([]byte, 0, 3*len(runes))
	for i, r := range runes {
		if i > 0 && r == runes[i-1] {
			continue
		}
		key = binary.AppendUvarint(key, uint64(r))
	}
	return string(key)
}

// subset returns the subset of utf8File with the runes of usedRunes (its
// values), as GenerateCutFont makes it.
func (utf *utf8FontFile) subset(usedRunes map[int]int) *utf8Subset {
	if !utf.prepareCut() {
		return newUTF8Subset(nil, utf.CodeSymbolDictionary, utf.LastRune)
	}
	return makeUTF8Subset(utf, usedRunes)
}

// makeUTF8Subset cuts the subset of utf8File with the runes of usedRunes,
// utf8File being prepared (prepareCut) and used by no one else.
func makeUTF8Subset(utf8File *utf8FontFile, usedRunes map[int]int) *utf8Subset {
	stream := utf8File.cut(usedRunes)
	return newUTF8Subset(stream, utf8File.CodeSymbolDictionary, utf8File.LastRune)
}

// newUTF8Subset compresses a subset and its CIDToGIDMap, made from the
// subset's rune to glyph map, as putfonts writes them.
func newUTF8Subset(stream []byte, codeSymbols map[int]int, lastRune int) *utf8Subset {
	cidToGidMap := make([]byte, 256*256*2)
	for cc, glyph := range codeSymbols {
		if cc == 0 {
			continue
		}
		cidToGidMap[cc*2] = byte(glyph >> 8)
		cidToGidMap[cc*2+1] = byte(glyph & 0xFF)
	}
	mem := xmem.compress(cidToGidMap)
	cidToGid := mem.copy()
	mem.release()

	mem = xmem.compress(stream)
	fontFile := mem.copy()
	mem.release()

	return &utf8Subset{
		length1:  len(stream),
		fontFile: fontFile,
		cidToGid: cidToGid,
		lastRune: lastRune,
	}
}
