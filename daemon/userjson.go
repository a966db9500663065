package daemon

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/orders"
	"primeur/core/planning"
)

// jsonFormats are huma's formats with one change to JSON: a body that
// writes its own JSON (jsonWriter: the user load) is written by it, in
// chunks of about jsonChunk bytes, instead of through encoding/json's
// reflection, which for each of the load's tens of thousands of
// quantities and prices calls Dec.MarshalJSON, then checks and copies
// what it returned, and builds the whole answer in memory (issue 20).
// The bytes are the same as encoding/json's with huma's settings (no
// HTML escaping, a newline at the end); TestUserLoadJSON and
// TestUserLoadAppendJSON hold them to it.
func jsonFormats() map[string]huma.Format {
	formats := maps.Clone(huma.DefaultFormats)
	format := huma.Format{
		Marshal: func(w io.Writer, v any) error {
			if jw, ok := v.(jsonWriter); ok {
				return writeJSON(w, jw)
			}
			return huma.DefaultJSONFormat.Marshal(w, v)
		},
		Unmarshal: huma.DefaultJSONFormat.Unmarshal,
	}
	formats["application/json"] = format
	formats["json"] = format
	return formats
}

// jsonWriter is a body that writes its own JSON, exactly as encoding/json
// would encode it, into a jsonStream.
type jsonWriter interface {
	writeJSON(s *jsonStream) error
}

// jsonStream is JSON being written: appended to b, handed to w each time
// b passes jsonChunk (chunk), and at the end (flush).
type jsonStream struct {
	w   io.Writer
	b   []byte
	err error
}

// jsonChunk is the size of what a jsonStream writes at a time.
const jsonChunk = 32 << 10

// jsonBuffers keeps the streams' buffers.
var jsonBuffers = sync.Pool{New: func() any { b := make([]byte, 0, jsonChunk+jsonChunk/2); return &b }}

// writeJSON writes v's JSON and a newline to w, as huma's JSON format.
func writeJSON(w io.Writer, v jsonWriter) error {
	buf := jsonBuffers.Get().(*[]byte)
	s := jsonStream{w: w, b: (*buf)[:0]}
	err := v.writeJSON(&s)
	if err == nil {
		s.b = append(s.b, '\n')
		err = s.flush()
	}
	if cap(s.b) <= 4*jsonChunk {
		*buf = s.b[:0]
		jsonBuffers.Put(buf)
	}
	return err
}

// chunk writes what b holds once it passes jsonChunk.
func (s *jsonStream) chunk() {
	if len(s.b) >= jsonChunk {
		_ = s.flush()
	}
}

// flush writes what b holds; the first error stays.
func (s *jsonStream) flush() error {
	if s.err == nil && len(s.b) > 0 {
		_, s.err = s.w.Write(s.b)
	}
	s.b = s.b[:0]
	return s.err
}

// writeJSON writes the user load: its two large parts, the needs and the
// orders, by hand; the others (a few KB) through encoding/json.
func (l UserLoad) writeJSON(s *jsonStream) error {
	s.b = append(s.b, `{"user":`...)
	s.encode(l.User)
	s.b = append(s.b, `,"needs":`...)
	s.needs(l.Needs)
	s.b = append(s.b, `,"products":`...)
	s.encode(l.Products)
	s.b = append(s.b, `,"distributors":`...)
	s.encode(l.Distributors)
	s.b = append(s.b, `,"producers":`...)
	s.encode(l.Producers)
	s.b = append(s.b, `,"events":`...)
	s.encode(l.Events)
	s.b = append(s.b, `,"orders":`...)
	s.orders(l.Orders)
	s.b = append(s.b, `,"prices":`...)
	s.encode(l.Prices)
	s.b = append(s.b, '}')
	return s.err
}

// encode appends v as encoding/json encodes it with huma's settings,
// without the newline.
func (s *jsonStream) encode(v any) {
	buf := bytes.NewBuffer(s.b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	s.b = bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
	s.chunk()
}

// needs writes needs as encoding/json writes []planning.View.
func (s *jsonStream) needs(needs []planning.View) {
	b := s.b
	if needs == nil {
		s.b = append(b, "null"...)
		return
	}
	b = append(b, '[')
	for i := range needs {
		n := &needs[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"_id":`...)
		b = appendString(b, n.ID)
		b = append(b, `,"product":`...)
		b = appendString(b, n.Product)
		b = append(b, `,"distributor":`...)
		b = appendString(b, n.Distributor)
		b = append(b, `,"date":`...)
		b = appendString(b, n.Date)
		b = append(b, `,"quantity":`...)
		b = n.Quantity.AppendJSON(b)
		b = append(b, `,"quantityAccepted":`...)
		b = n.QuantityAccepted.AppendJSON(b)
		b = append(b, `,"quantityProposed":`...)
		b = n.QuantityProposed.AppendJSON(b)
		b = append(b, `,"quantityAvailable":`...)
		b = n.QuantityAvailable.AppendJSON(b)
		b = append(b, `,"updatedAt":`...)
		b = appendString(b, n.UpdatedAt)
		b = append(b, `,"proposals":`...)
		if n.Proposals == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j := range n.Proposals {
				p := &n.Proposals[j]
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"_id":`...)
				b = appendString(b, p.ID)
				b = append(b, `,"producer":`...)
				b = appendString(b, p.Producer)
				b = append(b, `,"status":`...)
				b = appendString(b, p.Status)
				b = append(b, `,"from":`...)
				b = appendString(b, p.From)
				b = append(b, `,"quantity":`...)
				b = p.Quantity.AppendJSON(b)
				b = append(b, `,"price":`...)
				b = p.Price.AppendJSON(b)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
		if len(b) >= jsonChunk {
			s.b = b
			s.chunk()
			b = s.b
		}
	}
	s.b = append(b, ']')
}

// orders writes orders as encoding/json writes []orders.View.
func (s *jsonStream) orders(os []orders.View) {
	b := s.b
	if os == nil {
		s.b = append(b, "null"...)
		return
	}
	b = append(b, '[')
	for i := range os {
		o := &os[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"_id":`...)
		b = appendString(b, o.ID)
		b = append(b, `,"date":`...)
		b = appendString(b, o.Date)
		if o.Distributor != "" {
			b = append(b, `,"distributor":`...)
			b = appendString(b, o.Distributor)
		}
		if o.Producer != "" {
			b = append(b, `,"producer":`...)
			b = appendString(b, o.Producer)
		}
		b = append(b, `,"deliveries":`...)
		s.b = b
		s.deliveries(o.Deliveries)
		b = s.b
		if inv := o.Invoice; inv != nil {
			b = append(b, `,"invoice":{"_id":`...)
			b = appendString(b, inv.ID)
			b = append(b, `,"number":`...)
			b = appendString(b, inv.Number)
			b = append(b, `,"issuedAt":`...)
			b = appendString(b, inv.IssuedAt)
			if len(inv.Credits) > 0 {
				b = append(b, `,"credits":[`...)
				for j := range inv.Credits {
					c := &inv.Credits[j]
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, `{"_id":`...)
					b = appendString(b, c.ID)
					b = append(b, `,"number":`...)
					b = appendString(b, c.Number)
					b = append(b, `,"kind":`...)
					b = appendString(b, c.Kind)
					b = append(b, `,"deliveryId":`...)
					b = appendString(b, c.DeliveryID)
					b = append(b, `,"issuedAt":`...)
					b = appendString(b, c.IssuedAt)
					b = append(b, '}')
				}
				b = append(b, ']')
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	s.b = append(b, ']')
}

// deliveries writes deliveries as encoding/json writes
// []orders.DeliveryView, in chunks.
func (s *jsonStream) deliveries(ds []orders.DeliveryView) {
	b := s.b
	if ds == nil {
		s.b = append(b, "null"...)
		return
	}
	b = append(b, '[')
	for i := range ds {
		d := &ds[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"_id":`...)
		b = appendString(b, d.ID)
		b = append(b, `,"orderId":`...)
		b = appendString(b, d.OrderID)
		b = append(b, `,"status":`...)
		b = appendString(b, d.Status)
		b = append(b, `,"date":`...)
		b = appendString(b, d.Date)
		b = append(b, `,"chrono":`...)
		b = strconv.AppendInt(b, d.Chrono, 10)
		b = append(b, `,"claimStatus":`...)
		b = appendString(b, d.ClaimStatus)
		if d.ClaimSentAt != "" {
			b = append(b, `,"claimSentAt":`...)
			b = appendString(b, d.ClaimSentAt)
		}
		if d.ClaimReviewedAt != "" {
			b = append(b, `,"claimReviewedAt":`...)
			b = appendString(b, d.ClaimReviewedAt)
		}
		b = append(b, `,"deliveryLines":`...)
		if d.DeliveryLines == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j := range d.DeliveryLines {
				l := &d.DeliveryLines[j]
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"_id":`...)
				b = appendString(b, l.ID)
				b = append(b, `,"product":`...)
				b = appendString(b, l.Product)
				b = append(b, `,"price":`...)
				b = l.Price.AppendJSON(b)
				b = append(b, `,"quantityExpected":`...)
				b = l.QuantityExpected.AppendJSON(b)
				b = append(b, `,"quantitySent":`...)
				b = l.QuantitySent.AppendJSON(b)
				b = append(b, `,"quantityClaimed":`...)
				b = l.QuantityClaimed.AppendJSON(b)
				if l.ClaimType != "" {
					b = append(b, `,"claimType":`...)
					b = appendString(b, l.ClaimType)
				}
				if l.ClaimComment != "" {
					b = append(b, `,"claimComment":`...)
					b = appendString(b, l.ClaimComment)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
		if len(b) >= jsonChunk {
			s.b = b
			s.chunk()
			b = s.b
		}
	}
	s.b = append(b, ']')
}

const hexDigits = "0123456789abcdef"

// special8 reports whether one of the eight bytes of x is a control
// character, '"', '\\' or not ASCII.
func special8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v & highs }
	return (x&highs | zero(x^(ones*'"')) | zero(x^(ones*'\\')) | (x-ones*0x20)&^x&highs) != 0
}

// appendString appends s as a JSON string exactly as encoding/json does
// without HTML escaping: '"' and '\\' escaped, control characters as \b,
// \f, \n, \r, \t or \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 as
// \u2028 and \u2029; everything else as it is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look (most of the
		// load's strings are ids and dates).
		for i+8 <= len(s) && !special8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
