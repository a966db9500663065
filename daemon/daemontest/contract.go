package daemontest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/danielgtaylor/huma/v2"
	"github.com/klauspost/compress/zstd"
)

// Contract holds a daemon's OpenAPI document, against which every answer a
// test client reads is checked: an answer of a documented operation must
// have a documented status (or fall under `default`), a content type that
// response lists, and a JSON body matching its schema (huma's validator, in
// its mode for answers). The answers of routes outside the document (the
// UI, /docs, /openapi.json) are not checked. tools/contract checks the same
// document with an independent validator (ajv) through a generated client.
type Contract struct {
	registry huma.Registry
	routes   *http.ServeMux
	ops      map[string]*huma.Operation // by mux pattern, "GET /api/needs/{id}"
}

// NewContract reads the operations of doc.
func NewContract(doc *huma.OpenAPI) *Contract {
	c := &Contract{registry: doc.Components.Schemas, routes: http.NewServeMux(), ops: map[string]*huma.Operation{}}
	for path, item := range doc.Paths {
		for method, op := range map[string]*huma.Operation{
			http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
			http.MethodDelete: item.Delete, http.MethodPatch: item.Patch,
		} {
			if op == nil {
				continue
			}
			pattern := method + " " + path
			c.routes.HandleFunc(pattern, func(http.ResponseWriter, *http.Request) {})
			c.ops[pattern] = op
		}
	}
	return c
}

// Check lists what the document does not allow in the answer to req
// (status, header and body); nothing for a route outside the document.
func (c *Contract) Check(req *http.Request, status int, header http.Header, body []byte) []string {
	_, pattern := c.routes.Handler(req)
	op := c.ops[pattern]
	if op == nil {
		return nil
	}
	where := fmt.Sprintf("%s (%s) answered %d", pattern, op.OperationID, status)
	res := op.Responses[strconv.Itoa(status)]
	if res == nil {
		res = op.Responses["default"]
	}
	if res == nil {
		return []string{where + ": a status the document does not list"}
	}
	if len(body) == 0 && (len(res.Content) == 0 || req.Method == http.MethodHead) {
		return nil
	}
	contentType := header.Get("Content-Type")
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return []string{fmt.Sprintf("%s: unreadable content type %q", where, contentType)}
	}
	media := res.Content[mediaType]
	if media == nil {
		return []string{fmt.Sprintf("%s with %q, which the document does not list for that answer", where, mediaType)}
	}
	if media.Schema == nil || !isJSON(mediaType) {
		return nil
	}
	body, err = decoded(header.Get("Content-Encoding"), body)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", where, err)}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{fmt.Sprintf("%s: the body is not JSON: %v", where, err)}
	}
	result := &huma.ValidateResult{}
	huma.Validate(c.registry, media.Schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, v, result)
	var problems []string
	for _, e := range result.Errors {
		problems = append(problems, fmt.Sprintf("%s: the body breaks its schema: %v", where, e))
	}
	return problems
}

// decoded is body without its content coding (a test that asks for a
// compressed answer reads its bytes as they came).
func decoded(coding string, body []byte) ([]byte, error) {
	var r io.Reader
	switch coding {
	case "", "identity":
		return body, nil
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("the gzip body: %w", err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("the zstd body: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, fmt.Errorf("an unknown Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("the %s body: %w", coding, err)
	}
	return out, nil
}

// isJSON tells a JSON media type (application/json, application/problem+json).
func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}
