package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRevalidate checks which answers get a validator and when a request
// holding it is answered 304 with no body.
func TestRevalidate(t *testing.T) {
	jsonAnswer := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(body[:len(body)/2]))
			_, _ = w.Write([]byte(body[len(body)/2:]))
		}
	}
	tagOf := func(h http.Handler, path string) string {
		rec := httptest.NewRecorder()
		Revalidate(h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Header().Get("ETag")
	}
	user := jsonAnswer(`{"name":"Épicerie du Lac","needs":[1,2,3]}`)
	tag := tagOf(user, "/api/user")
	if !strings.HasPrefix(tag, `W/"`) || len(tag) < 10 {
		t.Fatalf("the JSON answer's ETag is %q, want a weak validator", tag)
	}
	if other := tagOf(jsonAnswer(`{"name":"Épicerie du Lac","needs":[1,2,4]}`), "/api/user"); other == tag {
		t.Fatal("two different answers have the same ETag")
	}
	big := strings.Repeat("x", revalidateMaxSize+1)

	cases := []struct {
		name        string
		method      string
		path        string
		ifNoneMatch string
		handler     http.Handler
		wantStatus  int
		wantTag     bool
		wantBody    string
	}{
		{"first GET", http.MethodGet, "/api/user", "", user, 200, true, `{"name":"Épicerie du Lac","needs":[1,2,3]}`},
		{"GET with the tag", http.MethodGet, "/api/user", tag, user, 304, true, ""},
		{"GET with the strong form of the tag", http.MethodGet, "/api/user", strings.TrimPrefix(tag, "W/"), user, 304, true, ""},
		{"GET with the tag among others", http.MethodGet, "/api/user", `"a", ` + tag + `, W/"b"`, user, 304, true, ""},
		{"GET with any tag", http.MethodGet, "/api/user", "*", user, 304, true, ""},
		{"GET with an old tag", http.MethodGet, "/api/user", `W/"old"`, user, 200, true, `{"name":"Épicerie du Lac","needs":[1,2,3]}`},
		{"POST", http.MethodPost, "/api/user", tag, user, 200, false, `{"name":"Épicerie du Lac","needs":[1,2,3]}`},
		{"outside the API", http.MethodGet, "/print/x", tag, user, 200, false, `{"name":"Épicerie du Lac","needs":[1,2,3]}`},
		{"a refusal", http.MethodGet, "/api/user", "", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":404}`))
		}), 404, false, `{"status":404}`},
		{"not JSON", http.MethodGet, "/api/export.csv", "", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/csv")
			_, _ = w.Write([]byte("a;b\n"))
		}), 200, false, "a;b\n"},
		{"a validator of its own", http.MethodGet, "/api/user", `"mine"`, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"mine"`)
			_, _ = w.Write([]byte(`{}`))
		}), 200, true, `{}`},
		{"a stream", http.MethodGet, "/api/events", "", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"a":`))
			http.NewResponseController(w).Flush()
			_, _ = w.Write([]byte(`1}`))
		}), 200, false, `{"a":1}`},
		{"too large to hold", http.MethodGet, "/api/user", "", jsonAnswer(big), 200, false, big},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, c.path, nil)
			if c.ifNoneMatch != "" {
				req.Header.Set("If-None-Match", c.ifNoneMatch)
			}
			rec := httptest.NewRecorder()
			Revalidate(c.handler).ServeHTTP(rec, req)
			if rec.Code != c.wantStatus {
				t.Fatalf("status %d, want %d", rec.Code, c.wantStatus)
			}
			if got := rec.Header().Get("ETag") != ""; got != c.wantTag {
				t.Fatalf("ETag %q, want one: %v", rec.Header().Get("ETag"), c.wantTag)
			}
			if rec.Body.String() != c.wantBody {
				t.Fatalf("body of %d bytes, want %d", rec.Body.Len(), len(c.wantBody))
			}
			if c.wantStatus == http.StatusNotModified && rec.Header().Get("Content-Type") != "" {
				t.Fatalf("a 304 with Content-Type %q", rec.Header().Get("Content-Type"))
			}
		})
	}
}
