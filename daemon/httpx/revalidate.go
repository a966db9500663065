package httpx

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// Unchanged data costs nothing (issue 42): every JSON answer of a GET under
// /api/ carries a validator, a weak ETag made of a hash of its bytes, and a
// GET whose If-None-Match names it is answered 304 Not Modified, with no
// body — nothing to compress, nothing to send on a slow line. The UI keeps
// the last answer of each address in memory and sends its ETag back
// (ui/src/api.ts); the answers stay Cache-Control: no-store, so no browser
// keeps a copy of anyone's data on disk.
//
// The hash is of the answer as the handler wrote it, so it is right by
// construction — the same bytes, the same tag, whatever the engine or the
// replica that made them — at the cost of making the answer to compare it:
// what a 304 saves is the bytes on the line and their compression, not
// the reads. A per-organisation change counter would save the reads too,
// at the price of bumping it in every write; the hash needs nothing of the
// writers.
//
// Only whole answers are tagged: an answer above revalidateMaxSize, one
// that streams (flushes) or is not JSON, one not 200, or one whose handler
// set its own validator passes through as it comes.

// revalidateMaxSize bounds what an answer may hold in memory to be tagged:
// far above the largest user load measured (3.6 MB for the largest shop
// after a year, issue 42).
const revalidateMaxSize = 16 << 20

// Revalidate tags the JSON answers of GET requests under /api/ with a weak
// ETag and answers 304 to an If-None-Match that names it.
func Revalidate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		t := &tagWriter{ResponseWriter: w}
		next.ServeHTTP(t, r)
		t.finish(r)
	})
}

// tagState is where a tagWriter stands.
type tagState int

const (
	tagUndecided tagState = iota // nothing written yet
	tagHolding                   // a whole 200 JSON answer, held to be tagged
	tagPassing                   // passed through as it comes
)

// tagWriter holds a JSON answer until its end, to tag it.
type tagWriter struct {
	http.ResponseWriter
	state  tagState
	status int
	buf    bytes.Buffer
}

// WriteHeader decides: a 200 JSON answer without a validator of its own is
// held, anything else passes.
func (t *tagWriter) WriteHeader(status int) {
	if t.state != tagUndecided {
		if t.state == tagPassing {
			t.ResponseWriter.WriteHeader(status)
		}
		return
	}
	t.status = status
	h := t.Header()
	ct := strings.ToLower(h.Get("Content-Type"))
	if status == http.StatusOK && h.Get("ETag") == "" && h.Get("Content-Encoding") == "" &&
		strings.HasPrefix(ct, "application/json") {
		t.state = tagHolding
		return
	}
	_ = t.pass() // nothing is held before the status: nothing to write, no error
}

func (t *tagWriter) Write(b []byte) (int, error) {
	if t.state == tagUndecided {
		t.WriteHeader(http.StatusOK)
	}
	if t.state == tagPassing {
		return t.ResponseWriter.Write(b)
	}
	if t.buf.Len()+len(b) > revalidateMaxSize {
		if err := t.pass(); err != nil {
			return 0, err
		}
		return t.ResponseWriter.Write(b)
	}
	return t.buf.Write(b)
}

// pass gives up tagging: the status and what is held go out as they are.
func (t *tagWriter) pass() error {
	t.state = tagPassing
	if t.status != 0 {
		t.ResponseWriter.WriteHeader(t.status)
	}
	if t.buf.Len() == 0 {
		return nil
	}
	_, err := t.ResponseWriter.Write(t.buf.Bytes())
	t.buf = bytes.Buffer{}
	return err
}

// FlushError passes a streamed answer through from its first flush.
func (t *tagWriter) FlushError() error {
	if t.state != tagPassing {
		if t.state == tagUndecided && t.status == 0 {
			t.status = http.StatusOK
		}
		if err := t.pass(); err != nil {
			return err
		}
	}
	return http.NewResponseController(t.ResponseWriter).Flush()
}

// Flush is http.Flusher's.
func (t *tagWriter) Flush() { _ = t.FlushError() }

// Unwrap gives http.ResponseController the writer underneath.
func (t *tagWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// finish tags what is held and answers 304 when the client has it already.
func (t *tagWriter) finish(r *http.Request) {
	if t.state != tagHolding {
		return
	}
	sum := sha256.Sum256(t.buf.Bytes())
	tag := `W/"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	h := t.Header()
	h.Set("ETag", tag)
	if Matches(r.Header.Get("If-None-Match"), tag) {
		h.Del("Content-Type")
		h.Del("Content-Length")
		t.ResponseWriter.WriteHeader(http.StatusNotModified)
		return
	}
	t.ResponseWriter.WriteHeader(t.status)
	_, _ = t.ResponseWriter.Write(t.buf.Bytes()) // a client gone is the server's business
}

// Matches reports whether the If-None-Match header value names tag, by the
// weak comparison RFC 9110 §13.1.2 gives it (W/ ignored), or is "*".
func Matches(ifNoneMatch, tag string) bool {
	want := strings.TrimPrefix(tag, "W/")
	for _, v := range strings.Split(ifNoneMatch, ",") {
		v = strings.TrimSpace(v)
		if v == "*" || (v != "" && strings.TrimPrefix(v, "W/") == want) {
			return true
		}
	}
	return false
}
