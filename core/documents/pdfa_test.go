package documents_test

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"primeur/core/documents"
)

var idRe = regexp.MustCompile(`/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]`)

// pdfA checks what no validator installed here checks: that an invoice is
// structurally a PDF/A-3b Factur-X document (README of testdata/facturx).
//   - the header "%PDF-1.7" and a binary comment line (4 bytes above 127);
//   - a trailer /ID, no encryption;
//   - an XMP metadata stream, unfiltered, declaring pdfaid part 3 and
//     conformance B, the Factur-X properties (INVOICE, factur-x.xml, 1.0,
//     EN 16931) with their PDF/A extension schema, and the same title as
//     the information dictionary;
//   - an sRGB output intent (GTS_PDFA1, an ICC profile of 3 components);
//   - factur-x.xml embedded, text/xml, with /AFRelationship /Alternative,
//     listed in the catalog's /AF and its /EmbeddedFiles, holding the
//     invoice's number;
//   - every font embedded (a font file in each descriptor, no font
//     without one).
//
// With number empty, a document without Factur-X data (the buyer's
// documents of the flat-rate refund): the same, but no Factur-X
// properties, no /AF and no embedded file.
func pdfA(t testing.TB, pdf []byte, number string) {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.7\n%")) {
		t.Fatalf("header %q", pdf[:min(16, len(pdf))])
	}
	second := pdf[len("%PDF-1.7\n%"):]
	for i := range 4 {
		if second[i] <= 127 {
			t.Fatalf("no binary comment line: %q", pdf[:16])
		}
	}
	if !idRe.Match(pdf[bytes.LastIndex(pdf, []byte("trailer")):]) {
		t.Fatal("no /ID in the trailer")
	}
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	ctx, err := api.ReadContext(bytes.NewReader(pdf), conf)
	if err != nil {
		t.Fatal(err)
	}
	x := ctx.XRefTable
	if x.Encrypt != nil {
		t.Fatal("encrypted")
	}
	cat, err := x.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	stream := func(o types.Object, what string) *types.StreamDict {
		t.Helper()
		sd, _, err := x.DereferenceStreamDict(o)
		if err != nil || sd == nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := sd.Decode(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return sd
	}
	dict := func(o types.Object, what string) types.Dict {
		t.Helper()
		d, err := x.DereferenceDict(o)
		if err != nil || d == nil {
			t.Fatalf("%s: %v", what, err)
		}
		return d
	}

	// XMP.
	meta := stream(cat["Metadata"], "metadata")
	if _, filtered := meta.Find("Filter"); filtered {
		t.Fatal("the XMP stream is filtered")
	}
	xmp := string(meta.Content)
	facturX := []string{"<fx:DocumentType>INVOICE</fx:DocumentType>", "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
		"<fx:Version>1.0</fx:Version>", "<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>",
		"<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>"}
	wants := []string{"<pdfaid:part>3</pdfaid:part>", "<pdfaid:conformance>B</pdfaid:conformance>", "<pdf:Producer>", "<xmp:CreateDate>"}
	if number != "" {
		wants = append(wants, facturX...)
	} else if strings.Contains(xmp, "factur-x") || cat["AF"] != nil || cat["Names"] != nil {
		t.Fatalf("Factur-X data in a document without any:\n%s", xmp)
	}
	for _, want := range wants {
		if !strings.Contains(xmp, want) {
			t.Fatalf("XMP without %s:\n%s", want, xmp)
		}
	}
	info := dict(*x.Info, "info")
	title, err := types.StringOrHexLiteral(info["Title"])
	var escaped bytes.Buffer
	if err == nil && title != nil {
		err = xml.EscapeText(&escaped, []byte(*title))
	}
	if err != nil || title == nil || !strings.Contains(xmp, `<rdf:li xml:lang="x-default">`+escaped.String()+`</rdf:li>`) {
		t.Fatalf("info title %v not the XMP's: %v", title, err)
	}

	// Output intent.
	intents := cat.ArrayEntry("OutputIntents")
	if len(intents) != 1 {
		t.Fatalf("output intents %v", intents)
	}
	intent := dict(intents[0], "output intent")
	if s := intent.NameEntry("S"); s == nil || *s != "GTS_PDFA1" {
		t.Fatalf("output intent %v", intent)
	}
	if icc := stream(intent["DestOutputProfile"], "ICC profile"); icc.IntEntry("N") == nil || *icc.IntEntry("N") != 3 ||
		!bytes.Equal(icc.Content[36:40], []byte("acsp")) {
		t.Fatal("the output intent's profile is not an RGB ICC profile")
	}

	// The attached XML.
	if number == "" {
		pdfAFonts(t, x)
		return
	}
	af := cat.ArrayEntry("AF")
	if len(af) != 1 {
		t.Fatalf("/AF %v", af)
	}
	spec := dict(af[0], "file specification")
	if r := spec.NameEntry("AFRelationship"); r == nil || *r != "Alternative" {
		t.Fatalf("AFRelationship %v", spec)
	}
	if f := spec.StringEntry("F"); f == nil || *f != documents.FacturXName {
		t.Fatalf("file name %v", spec)
	}
	file := stream(spec.DictEntry("EF")["F"], "embedded file")
	if s := file.NameEntry("Subtype"); s == nil || *s != "text/xml" {
		t.Fatalf("MIME type %v", file.Dict)
	}
	if file.DictEntry("Params") == nil || file.DictEntry("Params")["ModDate"] == nil {
		t.Fatal("embedded file without /Params /ModDate")
	}
	if !bytes.Contains(file.Content, []byte("<ram:ID>"+number+"</ram:ID>")) {
		t.Fatalf("the attached XML is not invoice %s", number)
	}
	names := dict(dict(cat["Names"], "names")["EmbeddedFiles"], "embedded files").ArrayEntry("Names")
	if len(names) != 2 || names[0].String() != "(factur-x.xml)" && !strings.Contains(names[0].String(), "factur-x.xml") {
		t.Fatalf("EmbeddedFiles %v", names)
	}
	pdfAFonts(t, x)
}

// pdfAFonts checks that every font is embedded.
func pdfAFonts(t testing.TB, x *model.XRefTable) {
	t.Helper()
	fonts := 0
	for _, e := range x.Table {
		d, ok := e.Object.(types.Dict)
		if !ok {
			continue
		}
		if typ := d.NameEntry("Type"); typ != nil && *typ == "FontDescriptor" {
			fonts++
			if d["FontFile2"] == nil && d["FontFile"] == nil && d["FontFile3"] == nil {
				t.Fatalf("font %v not embedded", d.NameEntry("FontName"))
			}
		}
		if typ := d.NameEntry("Type"); typ != nil && *typ == "Font" {
			sub := d.NameEntry("Subtype")
			if sub != nil && (*sub == "Type1" || *sub == "TrueType") && d["FontDescriptor"] == nil {
				t.Fatalf("font %v without descriptor (not embedded)", d.NameEntry("BaseFont"))
			}
		}
	}
	if fonts == 0 {
		t.Fatal("no font descriptor")
	}
}

// TestPDFAStructureCatchesWhatItChecks: the structural check fails on a
// PDF missing what PDF/A-3 requires — a plain fpdf document (a delivery
// note), or an invoice whose /AF was removed.
func TestPDFAStructureCatchesWhatItChecks(t *testing.T) {
	inv := fuzzInvoice("FA-2026-000009", "2026-11-01", "o", 0, false)
	inv.Seller.SIRET, inv.IssueDate, inv.DueDate = "12345678200010", "2026-12-01", "2026-12-10"
	for i := range inv.Notes {
		inv.Notes[i].Date = "2026-11-05"
		inv.Lines[i].Date = "2026-11-05"
		inv.Lines[i].VATRate = inv.VATRate
	}
	inv.Total()
	pdf, err := documents.Invoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, inv.Number)
	for name, broken := range map[string][]byte{
		"no /AF":        bytes.Replace(pdf, []byte("/AF ["), []byte("/XX ["), 1),
		"1.4 header":    bytes.Replace(pdf, []byte("%PDF-1.7"), []byte("%PDF-1.4"), 1),
		"no XMP part":   bytes.Replace(pdf, []byte("<pdfaid:part>3<"), []byte("<pdfaid:part>2<"), 1),
		"Data, not Alt": bytes.Replace(pdf, []byte("/AFRelationship /Alternative"), []byte("/AFRelationship /Data       "), 1),
	} {
		r := &recorder{TB: t}
		func() {
			defer func() { _ = recover() }()
			pdfA(r, broken, inv.Number)
		}()
		if !r.failed {
			t.Errorf("%s: passed", name)
		}
	}
}

// recorder is a testing.TB whose fatal failures are recorded, and stop
// the check by a panic, instead of failing the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(r) }
func (r *recorder) Fatal(...any)          { r.failed = true; panic(r) }
func (r *recorder) Helper()               {}
