// Copyright ©2026 The go-pdf Authors. All rights reserved.
// Use of this source code is governed by a MIT-style
// license that can be found in the LICENSE file.

package fpdf

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"sync"
	"testing"
	"time"
)

// testFont is a UTF-8 TrueType font with composite glyphs (accented
// letters) and Latin, Greek, Cyrillic, Hebrew and Arabic letters. Upstream
// fpdf keeps DejaVu fonts in font/; this vendored copy reads Primeur's.
const testFont = "../../core/documents/fonts/DejaVuSans.ttf"

func readTestFont(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(testFont)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// texts are what the test documents write: each a different set of runes.
var texts = []string{
	"Facture FA-2026-000001 — 1 234,50 €",
	"Épicerie du Lac, Fée des Prés, cœur de bœuf",
	"Ζωή Жизнь Կյանք სიცოცხლე",
	"חוות האגם مزرعة البحيرة",
	"Fe\u0301e Z\u0335a\u0334l ﬁ ‘’ ≥ № …",
}

// render writes a two-page document with text in a regular and a bold
// UTF-8 font, added by add, optionally encrypted.
func render(t testing.TB, add func(f *Fpdf), text string, protect bool) []byte {
	t.Helper()
	f := New("P", "mm", "A4", "")
	f.SetCreationDate(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC))
	f.SetModificationDate(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC))
	f.SetCatalogSort(true)
	if protect {
		f.SetProtection(CnProtectPrint, "user", "owner")
	}
	add(f)
	f.AliasNbPages("{nb}")
	for page := 1; page <= 2; page++ {
		f.AddPage()
		f.SetFont("dejavu", "", 11)
		f.CellFormat(0, 6, fmt.Sprintf("%s — page %d/{nb}", text, page), "", 1, "L", false, 0, "")
		f.SetFont("dejavu", "B", 14)
		f.MultiCell(0, 6, text, "", "L", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func fromBytes(font []byte) func(f *Fpdf) {
	return func(f *Fpdf) {
		f.AddUTF8FontFromBytes("dejavu", "", font)
		f.AddUTF8FontFromBytes("dejavu", "B", font)
	}
}

func parsed(font *UTF8Font) func(f *Fpdf) {
	return func(f *Fpdf) {
		f.AddUTF8FontParsed("dejavu", "", font)
		f.AddUTF8FontParsed("dejavu", "B", font)
	}
}

// TestAddUTF8FontParsedWritesTheSameBytes: a document with a font parsed
// once is byte for byte the one with the font parsed for it, whether its
// subset is cut for it or reused from an earlier document, encrypted or
// not; and no document modifies the font's bytes.
func TestAddUTF8FontParsedWritesTheSameBytes(t *testing.T) {
	raw := readTestFont(t)
	orig := append([]byte(nil), raw...)
	font, err := ParseUTF8Font(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, protect := range []bool{false, true} {
		for _, text := range texts {
			want := render(t, fromBytes(raw), text, protect)
			for _, pass := range []string{"cut", "reused"} {
				if got := render(t, parsed(font), text, protect); !bytes.Equal(got, want) {
					t.Errorf("%q (protected %v, subset %s): the parsed font writes other bytes", text, protect, pass)
				}
			}
		}
	}
	if !bytes.Equal(raw, orig) {
		t.Error("the documents modified the font's bytes")
	}
}

// TestUTF8FontKeepsItsLastSubsets: the font keeps UTF8FontSubsets subsets,
// the most recently used, each made once.
func TestUTF8FontKeepsItsLastSubsets(t *testing.T) {
	font, err := ParseUTF8Font(readTestFont(t))
	if err != nil {
		t.Fatal(err)
	}
	runes := func(rs ...int) map[int]int {
		m := makeSubsetRange(32)
		for _, r := range rs {
			m[r] = r
		}
		return m
	}
	used := runes('a', 'b')
	first := font.subset(used)
	if again := font.subset(runes('b', 'a')); again != first {
		t.Fatal("the same runes cut twice")
	}
	for i := 0; i < 2*UTF8FontSubsets; i++ {
		font.subset(runes('a', 0x100+i))
		if i%4 == 0 {
			font.subset(used)
		}
	}
	font.mu.Lock()
	n, keys := font.lru.Len(), len(font.subsets)
	font.mu.Unlock()
	if n != UTF8FontSubsets || keys != UTF8FontSubsets {
		t.Fatalf("%d subsets kept (%d keys), want %d", n, keys, UTF8FontSubsets)
	}
	if font.subset(used) != first {
		t.Error("a subset used again was dropped")
	}
	if s := font.subset(runes('a', 0x100)); s == nil || font.lru.Front().Value != s {
		t.Error("the least recently used subset was not cut again")
	}
}

// TestUTF8FontConcurrentDocuments renders documents sharing a font from
// several goroutines (run with -race): each is the document rendered alone.
func TestUTF8FontConcurrentDocuments(t *testing.T) {
	raw := readTestFont(t)
	font, err := ParseUTF8Font(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, text := range texts {
		want[text] = render(t, fromBytes(raw), text, false)
		want["protected "+text] = render(t, fromBytes(raw), text, true)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 3*len(texts); i++ {
				text, protect := texts[(i+g)%len(texts)], i%2 == 1
				key := text
				if protect {
					key = "protected " + text
				}
				if got := render(t, parsed(font), text, protect); !bytes.Equal(got, want[key]) {
					t.Errorf("%q: another document rendered concurrently", key)
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestParseUTF8FontRejectsOtherFonts(t *testing.T) {
	for name, b := range map[string][]byte{
		"OpenType CFF": append([]byte("OTTO"), make([]byte, 64)...),
		"collection":   append([]byte("ttcf"), make([]byte, 64)...),
		"not a font":   []byte("%PDF-1.7 not a font at all"),
	} {
		if _, err := ParseUTF8Font(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func BenchmarkAddUTF8Font(b *testing.B) {
	raw := readTestFont(b)
	font, err := ParseUTF8Font(raw)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("FromBytes", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			render(b, fromBytes(raw), texts[1], false)
		}
	})
	b.Run("Parsed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			render(b, parsed(font), texts[1], false)
		}
	})
	b.Run("ParsedNewRunes", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			render(b, parsed(font), fmt.Sprintf("%s %c", texts[1], rune(0x100+i%400)), false)
		}
	})
}

// TestUntypedKeyMapPut: put(nil, v) keys v by the smallest non-negative int
// that is not a key, as it did by trying 0, 1, 2… in turn, whatever
// sequence of puts, pops, deletes and merges built the map.
func TestUntypedKeyMapPut(t *testing.T) {
	slowPut := func(pa *untypedKeyMap, value int) {
		for n := 0; ; n++ {
			if pa.getIndex(n) < 0 {
				pa.keySet = append(pa.keySet, n)
				pa.valueSet = append(pa.valueSet, value)
				return
			}
		}
	}
	rng := rand.New(rand.NewSource(20))
	for trial := 0; trial < 200; trial++ {
		fast, slow := &untypedKeyMap{}, &untypedKeyMap{}
		for _, k := range rng.Perm(12)[:rng.Intn(8)] { // keys with gaps
			var key interface{} = k
			if k == 11 {
				key = "interval"
			}
			fast.keySet, fast.valueSet = append(fast.keySet, key), append(fast.valueSet, k)
			slow.keySet, slow.valueSet = append(slow.keySet, key), append(slow.valueSet, k)
		}
		for op := 0; op < 60; op++ {
			v := rng.Intn(1000)
			switch r := rng.Intn(10); {
			case r < 6:
				fast.put(nil, v)
				slowPut(slow, v)
			case r == 6:
				fast.put("interval", v)
				slow.put("interval", v)
			case r == 7 && len(fast.keySet) > 0:
				fast.pop()
				slow.pop()
			case r == 8:
				fast.delete("interval")
				slow.delete("interval")
			case r == 9:
				other := &untypedKeyMap{}
				for i := rng.Intn(5); i > 0; i-- {
					other.put(nil, rng.Intn(1000))
				}
				fast = arrayMerge(fast, other)
				slow = arrayMerge(slow, other)
			}
			if fmt.Sprint(fast.keySet, fast.valueSet) != fmt.Sprint(slow.keySet, slow.valueSet) {
				t.Fatalf("trial %d, op %d: %v %v, want %v %v", trial, op, fast.keySet, fast.valueSet, slow.keySet, slow.valueSet)
			}
		}
	}
}
