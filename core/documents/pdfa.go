package documents

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	_ "embed"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
)

// sRGB is the ICC profile of the documents' output intent (icc/LICENSE).
//
//go:embed icc/sRGB.icc
var sRGB []byte

// FacturXName is the name the Factur-X XML is attached under.
const FacturXName = "factur-x.xml"

// pdfaMeta is what the document information and its XMP both say.
type pdfaMeta struct {
	title, author, creator, producer string
	created                          time.Time
	// docType is the Factur-X document type of the XMP: INVOICE.
	docType string
}

// The structure go-pdf/fpdf v0.9.0 writes, which pdfA relies on: a
// "%PDF-1.x" header line, objects "n 0 obj", then the information
// dictionary and the catalog as the last two objects, a classic xref
// table of 20-byte entries, a trailer naming them, "startxref".
var (
	headerRe    = regexp.MustCompile(`^%PDF-1\.[0-7]\n`)
	startxrefRe = regexp.MustCompile(`startxref\n([0-9]+)\n%%EOF\n?$`)
	xrefHeadRe  = regexp.MustCompile(`^xref\n0 ([0-9]+)\n`)
	rootRe      = regexp.MustCompile(`/Root ([0-9]+) 0 R`)
	infoRe      = regexp.MustCompile(`/Info ([0-9]+) 0 R`)
)

// pdfA turns a PDF written by fpdf into a PDF/A-3b carrying attached as
// its Factur-X XML (ISO 19005-3, Factur-X 1.0): it keeps every object of
// the pages as written and replaces the end of the file —
//
//   - the header becomes "%PDF-1.7" followed by a binary comment line;
//   - the information dictionary is rewritten from m, its dates with
//     their time zone, and the same facts go into an XMP metadata stream
//     (dc:title, dc:creator, xmp:CreatorTool, pdf:Producer, dates) with
//     pdfaid:part 3 / conformance B and the Factur-X extension schema;
//   - an sRGB output intent (GTS_PDFA1) with its ICC profile;
//   - the XML (when not nil) as an embedded file named factur-x.xml, /Subtype
//     /text#2Fxml, /AFRelationship /Alternative, listed both in the
//     catalog's /AF array and its /EmbeddedFiles name tree;
//   - a new cross-reference table, and a trailer with an /ID.
//
// The fonts are embedded by fpdf (TrueType subsets). The result is
// deterministic: the same input gives the same bytes (the /ID is a hash of
// the content).
func pdfA(raw []byte, m pdfaMeta, attached []byte) ([]byte, error) {
	header := headerRe.Find(raw)
	sx := startxrefRe.FindSubmatchIndex(raw)
	if header == nil || sx == nil {
		return nil, errors.New("documents: pdfa: not the PDF fpdf writes")
	}
	xrefAt, err := strconv.Atoi(string(raw[sx[2]:sx[3]]))
	if err != nil || xrefAt >= len(raw) {
		return nil, errors.New("documents: pdfa: bad startxref")
	}
	xh := xrefHeadRe.FindSubmatch(raw[xrefAt:])
	if xh == nil {
		return nil, errors.New("documents: pdfa: no xref table")
	}
	size, _ := strconv.Atoi(string(xh[1]))
	entries := raw[xrefAt+len(xh[0]):]
	if len(entries) < 20*size {
		return nil, errors.New("documents: pdfa: short xref table")
	}
	offsets := make([]int, size)
	for i := 1; i < size; i++ {
		e := entries[20*i : 20*i+20]
		if offsets[i], err = strconv.Atoi(string(e[:10])); err != nil || e[17] != 'n' {
			return nil, fmt.Errorf("documents: pdfa: xref entry %d", i)
		}
	}
	trailer := raw[xrefAt:]
	root, info := rootRe.FindSubmatch(trailer), infoRe.FindSubmatch(trailer)
	if root == nil || info == nil {
		return nil, errors.New("documents: pdfa: no /Root or /Info")
	}
	catalogN, _ := strconv.Atoi(string(root[1]))
	infoN, _ := strconv.Atoi(string(info[1]))
	if catalogN != size-1 || infoN != size-2 {
		return nil, errors.New("documents: pdfa: the information and the catalog are not the last objects")
	}
	if !bytes.Contains(raw[offsets[catalogN]:xrefAt], []byte("/Pages 1 0 R")) {
		return nil, errors.New("documents: pdfa: unexpected catalog")
	}

	const binary = "%\xe2\xe3\xcf\xd3\n"
	var out bytes.Buffer
	out.Grow(len(raw) + len(sRGB) + len(attached) + 8192)
	out.WriteString("%PDF-1.7\n" + binary)
	out.Write(raw[len(header):offsets[infoN]])
	shift := len("%PDF-1.7\n"+binary) - len(header)
	for i := 1; i < infoN; i++ {
		offsets[i] += shift
	}

	// New objects: the information dictionary keeps its number, the
	// catalog too (written last); the others follow.
	metaN, iccN, intentN, fileN, specN := size, size+1, size+2, size+3, size+4
	total := size + 5
	if attached == nil {
		total = size + 3
	}
	offsets = append(offsets, make([]int, total-size)...)
	object := func(n int, dict string, stream []byte) {
		offsets[n] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s", n, dict)
		if stream != nil {
			out.WriteString("\nstream\n")
			out.Write(stream)
			out.WriteString("\nendstream")
		}
		out.WriteString("\nendobj\n")
	}
	object(infoN, fmt.Sprintf("<<\n/Title %s\n/Author %s\n/Creator %s\n/Producer %s\n/CreationDate (%s)\n/ModDate (%s)\n>>",
		pdfText(m.title), pdfText(m.author), pdfText(m.creator), pdfText(m.producer),
		pdfDate(m.created), pdfDate(m.created)), nil)
	x := xmp(m)
	object(metaN, fmt.Sprintf("<< /Type /Metadata /Subtype /XML /Length %d >>", len(x)), x)
	icc := sRGBDeflated()
	object(iccN, fmt.Sprintf("<< /N 3 /Alternate /DeviceRGB /Length %d /Filter /FlateDecode >>", len(icc)), icc)
	object(intentN, fmt.Sprintf("<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB) "+
		"/RegistryName (http://www.color.org) /Info (sRGB IEC61966-2.1) /DestOutputProfile %d 0 R >>", iccN), nil)
	files := ""
	if attached != nil {
		files = fmt.Sprintf("/AF [%d 0 R]\n/Names << /EmbeddedFiles << /Names [(%s) %d 0 R] >> >>\n", specN, FacturXName, specN)
		sum := md5.Sum(attached)
		file := deflate(attached)
		object(fileN, fmt.Sprintf("<< /Type /EmbeddedFile /Subtype /text#2Fxml /Params << /ModDate (%s) /Size %d /CheckSum <%s> >> "+
			"/Length %d /Filter /FlateDecode >>", pdfDate(m.created), len(attached), hex.EncodeToString(sum[:]), len(file)), file)
		object(specN, fmt.Sprintf("<< /Type /Filespec /F (%s) /UF (%s) /Desc %s /AFRelationship /Alternative /EF << /F %d 0 R /UF %d 0 R >> >>",
			FacturXName, FacturXName, pdfText("Factur-X "+m.docType), fileN, fileN), nil)
	}
	object(catalogN, fmt.Sprintf("<<\n/Type /Catalog\n/Pages 1 0 R\n/Lang (fr-FR)\n/Metadata %d 0 R\n/OutputIntents [%d 0 R]\n"+
		"%s/ViewerPreferences << /DisplayDocTitle true >>\n>>", metaN, intentN, files), nil)

	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", total)
	for i := 1; i < total; i++ {
		fmt.Fprintf(&out, "%010d 00000 n \n", offsets[i])
	}
	id := md5.Sum(out.Bytes())
	fmt.Fprintf(&out, "trailer\n<<\n/Size %d\n/Root %d 0 R\n/Info %d 0 R\n/ID [<%x> <%x>]\n>>\nstartxref\n%d\n%%%%EOF\n",
		total, catalogN, infoN, id, id, xref)
	return out.Bytes(), nil
}

// sRGBDeflated is the output intent's profile compressed once for every
// document.
var sRGBDeflated = sync.OnceValue(func() []byte { return deflate(sRGB) })

// deflaters keeps deflate's zlib writers between documents: making one
// allocates its compressor's tables (about 460 KB at BestSpeed), a reset
// one gives the same output. A sync.Pool would drop them at every garbage
// collection, which rendering triggers often; this list keeps up to its
// capacity of them for the life of the process.
var deflaters = make(chan *zlib.Writer, 4)

func deflate(b []byte) []byte {
	var w *zlib.Writer
	select {
	case w = <-deflaters:
	default:
		w, _ = zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level: no error
	}
	var buf bytes.Buffer
	buf.Grow(len(b)/2 + 64)
	w.Reset(&buf)
	_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	select {
	case deflaters <- w:
	default: // enough kept
	}
	return buf.Bytes()
}

// pdfText is a PDF text string: UTF-16BE with its byte order mark, in
// hexadecimal, so that no character needs escaping.
func pdfText(s string) string {
	var b bytes.Buffer
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// pdfDate is a PDF date in UTC: D:20261201050000+00'00'.
func pdfDate(t time.Time) string { return "D:" + t.UTC().Format("20060102150405") + "+00'00'" }

// xmp is the document's XMP metadata packet: the same title, author,
// creator tool, producer and dates as the information dictionary, the
// PDF/A identification (part 3, conformance B), and the Factur-X
// properties with their PDF/A extension schema description (facturXMP).
func xmp(m pdfaMeta) []byte {
	esc := func(s string) string {
		var b bytes.Buffer
		_ = xml.EscapeText(&b, []byte(s)) // writes to a bytes.Buffer do not fail
		return b.String()
	}
	date := m.created.UTC().Format("2006-01-02T15:04:05") + "+00:00"
	return []byte(`<?xpacket begin="` + "\ufeff" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
<pdfaid:part>3</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">` + esc(m.title) + `</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>` + esc(m.author) + `</rdf:li></rdf:Seq></dc:creator>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<xmp:CreatorTool>` + esc(m.creator) + `</xmp:CreatorTool>
<xmp:CreateDate>` + date + `</xmp:CreateDate>
<xmp:ModifyDate>` + date + `</xmp:ModifyDate>
<xmp:MetadataDate>` + date + `</xmp:MetadataDate>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
<pdf:Producer>` + esc(m.producer) + `</pdf:Producer>
</rdf:Description>
` + facturXMP(m.docType, esc) + `</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`)
}

// facturXMP is the XMP description of a Factur-X document of type docType
// (INVOICE) with its PDF/A extension schema; none for a document without
// Factur-X data (docType empty: the buyer's documents of the flat-rate
// refund, flatrate.go).
func facturXMP(docType string, esc func(string) string) string {
	if docType == "" {
		return ""
	}
	return `<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
<fx:DocumentType>` + esc(docType) + `</fx:DocumentType>
<fx:DocumentFileName>` + FacturXName + `</fx:DocumentFileName>
<fx:Version>1.0</fx:Version>
<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
<rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>name of the embedded XML invoice file</pdfaProperty:description></rdf:li>
<rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentType</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>INVOICE</pdfaProperty:description></rdf:li>
<rdf:li rdf:parseType="Resource"><pdfaProperty:name>Version</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The actual version of the Factur-X XML schema</pdfaProperty:description></rdf:li>
<rdf:li rdf:parseType="Resource"><pdfaProperty:name>ConformanceLevel</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The conformance level of the embedded Factur-X data</pdfaProperty:description></rdf:li>
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
`
}
