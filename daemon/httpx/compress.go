package httpx

import (
	"cmp"
	"context"
	"io"
	"mime"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Responses are compressed, for the slow lines of issue 19: zstd, gzip
// or brotli, whichever the client prefers (Accept-Encoding with its
// q-values) and, among those it weighs alike, the one that costs least
// for what it saves, for the text the daemon writes (JSON, HTML, CSS,
// JavaScript, CSV, SVG, YAML) from compressMinSize bytes. The codecs are
// libraries: klauspost/compress's zstd and gzip (the standard library's
// format, about twice its speed) and andybalholm/brotli (pure Go, no
// cgo); the writer around them is this file's, since klauspost's own
// middleware (gzhttp) negotiates gzip and zstd but not brotli. The UI's
// hashed assets are compressed once, by the build (ui/vite.config.ts), and
// served as they are (static.go); what is compressed here is compressed at
// a fast level, its cost per request measured by daemon's
// compress_bench_test.go (docs/BENCHMARKS.md).
//
// At most compressSlots answers are compressed at once: a compression
// holds its encoder's memory (brotli's window is megabytes) until its
// answer is written; the next waits for a slot, or goes out as it is if
// its request ends first.
//
// Never compressed: what is already compressed (a Content-Encoding set by
// the handler, PDFs, zips, spreadsheets, images: any type not in
// compressible), range requests and partial answers, answers without a
// body (204, 304), event streams, and answers marked Cache-Control:
// no-transform. HEAD is negotiated as GET. A response whose type is not compressible
// is passed through from its first byte, so a streamed download (the
// personal data zip) streams as before.

// compressMinSize is the smallest body compressed: below it, the bytes
// saved do not pay for the encoder (and fit in a packet anyway).
const compressMinSize = 1024

// The codecs' levels on the fly, the answers being made per request, as
// measured on the demo shop's user load (BenchmarkCompressLevels,
// docs/BENCHMARKS.md, issue 42): zstd's fastest level is the smallest and
// nearly the cheapest of all (65 KB for 1.2 ms of CPU, where brotli 4
// took 6 ms for 67 KB); gzip 6 comes next (68 KB, 2.2 ms; gzip 1 gives
// 80 KB for 1.1 ms); brotli, for the clients that want it alone, stays at
// level 4, the last of its fast levels. zstd's window is 1 MiB: a
// browser must accept 8 MiB (RFC 8878 §3.1.1.1.2), and the answers
// compressed on the fly are smaller.
const (
	brotliLevel = 4
	gzipLevel   = 6
	zstdLevel   = zstd.SpeedFastest
	zstdWindow  = 1 << 20
)

// encoding is a content coding the daemon writes.
type encoding string

const (
	identity  encoding = ""
	encZstd   encoding = "zstd"
	encGzip   encoding = "gzip"
	encBrotli encoding = "br"
)

// byCost are the codings the daemon writes on the fly, the one that costs
// least for what it saves first (see the levels above): the order among
// the codings a client weighs alike. Files compressed once (static.go)
// have their own order, the smallest first.
var byCost = []encoding{encZstd, encGzip, encBrotli}

// compressSlots is how many answers are compressed at once: two per core,
// so that every core compresses while another answer's bytes are written.
func compressSlots() int { return 2 * runtime.GOMAXPROCS(0) }

// negotiate picks the coding of an answer made on the fly: the client's
// preferred one (preferences), or identity.
func negotiate(header string) encoding {
	if p := preferences(header, byCost); len(p) > 0 {
		return p[0]
	}
	return identity
}

// preferences are the codings of order the request's Accept-Encoding
// accepts (RFC 9110 §12.5.3), best first: by q-value (a coding not listed
// takes the value of "*", else 0; q=0 refuses it), in order's order on a
// tie, none preferred to an "identity" listed with a higher q-value. No
// header accepts none of them.
func preferences(header string, order []encoding) []encoding {
	if strings.TrimSpace(header) == "" {
		return nil
	}
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "x-gzip" {
			name = "gzip"
		}
		if name == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0 // an invalid weight accepts nothing
			}
			weight = f
		}
		if old, seen := q[name]; !seen || weight > old {
			q[name] = weight
		}
	}
	weight := func(e encoding) float64 {
		if w, ok := q[string(e)]; ok {
			return w
		}
		return q["*"] // 0 when absent
	}
	floor := 0.0 // a coding must be preferred to an identity listed
	if id, ok := q["identity"]; ok {
		floor = id
	}
	var out []encoding
	for _, e := range order {
		if w := weight(e); w > 0 && w >= floor {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b encoding) int { return cmp.Compare(weight(b), weight(a)) })
	return out
}

// compressible tells the media types compressed on the fly: text of any
// kind but event streams, and the structured text the daemon serves.
func compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case mt == "text/event-stream":
		return false
	case strings.HasPrefix(mt, "text/"):
		return true
	case strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true // application/problem+json, image/svg+xml…
	}
	switch mt {
	case "application/json", "application/javascript", "application/xml",
		"application/yaml", "application/x-yaml", "application/wasm":
		return true
	}
	return false
}

// addVary adds Accept-Encoding to the Vary header once.
func addVary(h http.Header) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, "Accept-Encoding") {
				return
			}
		}
	}
	h.Add("Vary", "Accept-Encoding")
}

// Compress is the middleware of on-the-fly compression: it compresses
// the answers of next as this file's comment says.
func Compress(next http.Handler) http.Handler {
	return compress(next, compressSlots())
}

// compress is Compress with slots answers compressed at once.
func compress(next http.Handler, slots int) http.Handler {
	free := make(chan struct{}, slots)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addVary(w.Header())
		enc := negotiate(r.Header.Get("Accept-Encoding"))
		if enc == identity || r.Header.Get("Range") != "" {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, enc: enc, ctx: r.Context(), slots: free}
		// Closed even if next panics: its slot and encoder come back.
		defer func() { _ = cw.close() }() // the client went away: nothing more to tell it
		next.ServeHTTP(cw, r)
	})
}

// The writer's states: it holds the first bytes until it knows whether
// the answer is compressed.
const (
	undecided = iota
	plain
	compressing
)

// compressWriter compresses an answer once its headers say it may be and
// its body reaches compressMinSize; until then it holds the status and
// the first bytes.
type compressWriter struct {
	http.ResponseWriter
	enc    encoding
	state  int
	status int // held until the decision; 0 = none yet
	buf    []byte
	out    encoder
	ctx    context.Context // the request's: waiting for a slot ends with it
	slots  chan struct{}   // one value per answer being compressed
}

// encoder is a pooled zstd, gzip or brotli writer.
type encoder interface {
	io.WriteCloser
	Flush() error
	Reset(io.Writer)
}

// pools are the encoders of each coding, kept from one answer to the next.
var pools = map[encoding]*sync.Pool{
	encBrotli: {New: func() any { return brotli.NewWriterLevel(nil, brotliLevel) }},
	encGzip: {New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzipLevel) // the level is valid
		return w
	}},
	encZstd: {New: func() any {
		// One goroutine per stream, the answer's own; the options are valid.
		w, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstdLevel), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow), zstd.WithLowerEncoderMem(true))
		return w
	}},
}

func (c *compressWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		c.ResponseWriter.WriteHeader(code) // informational: passed on
		return
	}
	if c.state != undecided {
		c.ResponseWriter.WriteHeader(code) // net/http says it is superfluous
		return
	}
	if c.status == 0 {
		c.status = code
	}
	if !c.mayCompress() {
		_ = c.startPlain() // nothing is held yet: no write to fail
	}
}

func (c *compressWriter) Write(b []byte) (int, error) {
	switch c.state {
	case plain:
		return c.ResponseWriter.Write(b)
	case compressing:
		return c.out.Write(b)
	}
	if c.status == 0 {
		c.status = http.StatusOK // a later WriteHeader is superfluous
	}
	if !c.mayCompress() {
		if err := c.startPlain(); err != nil {
			return 0, err
		}
		return c.ResponseWriter.Write(b)
	}
	c.buf = append(c.buf, b...)
	if len(c.buf) < compressMinSize {
		return len(b), nil
	}
	if err := c.startCompressing(); err != nil {
		return 0, err
	}
	return len(b), nil
}

// mayCompress is what the headers allow, before the size is known.
func (c *compressWriter) mayCompress() bool {
	status := c.status
	if status == 0 {
		status = http.StatusOK
	}
	h := c.Header()
	switch {
	case status < 200, status == http.StatusNoContent, status == http.StatusNotModified,
		status == http.StatusPartialContent:
		return false
	case h.Get("Content-Encoding") != "", h.Get("Content-Range") != "":
		return false
	case strings.Contains(strings.ToLower(h.Get("Cache-Control")), "no-transform"):
		return false
	}
	if cl := h.Get("Content-Length"); cl != "" {
		if n, err := strconv.Atoi(cl); err == nil && n < compressMinSize {
			return false
		}
	}
	ct := h.Get("Content-Type")
	return ct == "" || compressible(ct) // no type yet: sniffed from the first bytes
}

// sniff sets the Content-Type net/http would have sniffed from the first
// bytes, before they are compressed.
func (c *compressWriter) sniff() {
	h := c.Header()
	if _, set := h["Content-Type"]; !set && len(c.buf) > 0 {
		h.Set("Content-Type", http.DetectContentType(c.buf))
	}
}

func (c *compressWriter) writeStatus() {
	if c.status != 0 {
		c.ResponseWriter.WriteHeader(c.status)
	}
}

func (c *compressWriter) startPlain() error {
	c.state = plain
	c.writeStatus()
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.ResponseWriter.Write(c.buf)
	c.buf = nil
	return err
}

func (c *compressWriter) startCompressing() error {
	c.sniff()
	h := c.Header()
	if !compressible(h.Get("Content-Type")) {
		return c.startPlain()
	}
	select {
	case c.slots <- struct{}{}:
	case <-c.ctx.Done():
		return c.startPlain() // gone or cut short: nothing to save for it
	}
	c.state = compressing
	h.Set("Content-Encoding", string(c.enc))
	h.Del("Content-Length")
	h.Del("Accept-Ranges")
	// The compressed bytes are another representation: a strong validator
	// becomes weak, as nginx does (If-None-Match compares weakly).
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		h.Set("ETag", "W/"+etag)
	}
	c.writeStatus()
	c.out = pools[c.enc].Get().(encoder)
	c.out.Reset(c.ResponseWriter)
	_, err := c.out.Write(c.buf)
	c.buf = nil
	return err
}

// FlushError sends what is written so far (http.ResponseController calls
// it): a streamed answer that flushes before compressMinSize bytes is
// compressed when its type allows.
func (c *compressWriter) FlushError() error {
	if c.state == undecided {
		var err error
		if c.mayCompress() && (len(c.buf) > 0 || c.Header().Get("Content-Type") != "") {
			err = c.startCompressing()
		} else {
			err = c.startPlain()
		}
		if err != nil {
			return err
		}
	}
	if c.state == compressing {
		if err := c.out.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(c.ResponseWriter).Flush()
}

// Flush is http.Flusher's.
func (c *compressWriter) Flush() { _ = c.FlushError() }

// Unwrap gives http.ResponseController the writer underneath.
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// close ends the answer: what is still held (under compressMinSize) goes
// out plain, and the encoder writes its end and goes back to its pool.
func (c *compressWriter) close() error {
	switch c.state {
	case undecided:
		c.sniff()
		return c.startPlain()
	case compressing:
		err := c.out.Close()
		c.out.Reset(nil) // the pool keeps no response
		pools[c.enc].Put(c.out)
		c.out = nil
		<-c.slots
		return err
	}
	return nil
}
