package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core/text"
)

// French messages of the request checks made before any handler
// (CanonicalPath, CleanQuery, CheckJSONBody).
const (
	MsgBadPath        = "Chemin invalide."
	MsgBadQuery       = "Paramètres de la requête invalides : caractères non autorisés ou encodage incorrect."
	MsgNotUTF8        = "Le texte envoyé n'est pas encodé en UTF-8."
	MsgJSONRequired   = "Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/json)."
	msgTooLargeDetail = "Requête trop volumineuse."
)

// TextCheck is the text rule applied to every JSON body before huma reads
// it (CheckJSONBody), with what it needs to know of the API's fields.
type TextCheck struct {
	// Multiline names the JSON fields holding multi-line free text, where
	// tab and line breaks are allowed (text.Clean's multiline).
	Multiline map[string]bool
	// Messages are the French messages of the fields whose own rule a
	// control character also breaks (an email with a NUL does not look
	// like an email); every other field reads text.MsgInvalid.
	Messages map[string]string
}

// messageOf is the French message of an unclean field at path (".email",
// ".deliveryLines[0].claimComment").
func (c TextCheck) messageOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		if msg, ok := c.Messages[path[i+1:]]; ok {
			return msg
		}
	}
	return text.MsgInvalid
}

// maxReportedFields bounds the fields a refused body lists.
const maxReportedFields = 20

// CleanQuery reports whether a raw query string parses and every name and
// value follows the text rule.
func CleanQuery(raw string) bool {
	if raw == "" {
		return true
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return false
	}
	for k, vs := range values {
		if !text.Clean(k, false) {
			return false
		}
		for _, v := range vs {
			if !text.Clean(v, false) {
				return false
			}
		}
	}
	return true
}

// CheckJSONBody, a huma middleware, runs before every operation that takes a JSON body, ahead
// of huma's own parsing: a body must say it is JSON (an absent
// Content-Type is refused: 415), stay within the operation's size (413), be
// valid UTF-8 (400), and every string in it — names and values — follow
// the text rule (422 naming each field, with PRODUCT's message where the
// field has its own). Malformed JSON is left to huma,
// which answers it. Nothing is read past the size bound.
func (c TextCheck) CheckJSONBody(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if op == nil || op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil {
		next(ctx)
		return
	}
	r, w := humago.Unwrap(ctx)
	if r.Body == nil || r.Body == http.NoBody {
		next(ctx)
		return
	}
	limit := op.MaxBodyBytes
	if limit <= 0 {
		limit = 1 << 20
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			WriteProblem(w, Problem(http.StatusRequestEntityTooLarge, msgTooLargeDetail))
			return
		}
		WriteProblem(w, Problem(http.StatusBadRequest, StatusDetails[http.StatusBadRequest]))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		next(ctx)
		return
	}
	if !isJSONType(r.Header.Get("Content-Type")) {
		WriteProblem(w, Problem(http.StatusUnsupportedMediaType, MsgJSONRequired))
		return
	}
	if int64(len(body)) > limit {
		WriteProblem(w, Problem(http.StatusRequestEntityTooLarge, msgTooLargeDetail))
		return
	}
	if !utf8.Valid(body) {
		WriteProblem(w, Problem(http.StatusBadRequest, MsgNotUTF8))
		return
	}
	if bad := c.uncleanFields(body); len(bad) > 0 {
		details := make([]*huma.ErrorDetail, len(bad))
		for i, f := range bad {
			details[i] = &huma.ErrorDetail{Location: "body" + f, Message: c.messageOf(f)}
		}
		WriteProblem(w, Problem(http.StatusUnprocessableEntity, details[0].Message, details...))
		return
	}
	next(ctx)
}

// isJSONType accepts application/json (or a +json type) in UTF-8.
func isJSONType(ct string) bool {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	if mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}

// jsonFrame is an object or array being walked, for the path of a field.
type jsonFrame struct {
	array   bool
	index   int
	key     string
	wantKey bool
}

// uncleanFields walks a JSON document and returns the paths (".name",
// ".deliveryLines[0].claimComment") of the strings — names or values —
// that break the text rule, at most maxReportedFields of them. A
// malformed document stops the walk: huma refuses it afterwards.
func (c TextCheck) uncleanFields(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var (
		stack []jsonFrame
		bad   []string
	)
	path := func(last string) string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
			} else if !f.wantKey {
				b.WriteString("." + f.key)
			}
		}
		return b.String() + last
	}
	valueDone := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].wantKey = true
			}
		}
	}
	for len(bad) < maxReportedFields {
		tok, err := dec.Token()
		if err != nil {
			break // io.EOF, or malformed JSON left to huma
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, jsonFrame{array: v == '[', wantKey: v == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
				if !text.Clean(v, false) {
					bad = append(bad, path(""))
				}
				stack[n-1].key, stack[n-1].wantKey = v, false
				continue
			}
			key := ""
			if n := len(stack); n > 0 && !stack[n-1].array {
				key = stack[n-1].key
			}
			if !text.Clean(v, c.Multiline[key]) {
				bad = append(bad, path(""))
			}
			valueDone()
		default:
			valueDone()
		}
	}
	return bad
}

// CanonicalPath refuses paths with dot segments, empty segments,
// backslashes, invalid UTF-8 or control characters (also when
// percent-encoded, as the URL arrives decoded), which the mux would
// otherwise redirect or a handler pass to the database: no path trick
// reaches a handler.
func CanonicalPath(p string) bool {
	if !text.Clean(p, false) || strings.ContainsRune(p, '\\') || strings.Contains(p, "//") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}
