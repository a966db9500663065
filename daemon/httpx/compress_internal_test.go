package httpx

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// decoder reads a body in its coding.
func decoder(t *testing.T, enc string, r io.Reader) io.Reader {
	t.Helper()
	if enc == "br" {
		return brotli.NewReader(r)
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func TestPreferences(t *testing.T) {
	tests := []struct {
		header string
		want   []encoding
	}{
		{"", nil},
		{"   ", nil},
		{"gzip, deflate, br, zstd", []encoding{encBrotli, encGzip}}, // Chromium's
		{"gzip, deflate", []encoding{encGzip}},
		{"br", []encoding{encBrotli}},
		{"x-gzip", []encoding{encGzip}},
		{"GZIP, BR", []encoding{encBrotli, encGzip}},
		{"br;q=0.5, gzip", []encoding{encGzip, encBrotli}},
		{"br;q=0.8, gzip;q=0.8", []encoding{encBrotli, encGzip}},
		{"br ; q=0.9 , gzip;q=1.0", []encoding{encGzip, encBrotli}},
		{"br;q=0, gzip", []encoding{encGzip}},
		{"gzip;q=0, br;q=0", nil},
		{"*", []encoding{encBrotli, encGzip}},
		{"*;q=0.5, br;q=0", []encoding{encGzip}},
		{"*;q=0", nil},
		{"identity", nil},
		{"deflate, zstd", nil},
		{"br;q=0.3, identity;q=0.5", nil},
		{"br;q=0.5, gzip;q=0.2, identity;q=0.4", []encoding{encBrotli}},
		{"br;q=abc, gzip", []encoding{encGzip}},
		{"br;q=2", nil},
		{"gzip;q=0.2, gzip;q=0.9, br;q=0.5", []encoding{encGzip, encBrotli}},
	}
	for _, tt := range tests {
		if got := preferences(tt.header); !slices.Equal(got, tt.want) {
			t.Errorf("preferences(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                true,
		"application/problem+json":        true,
		"application/json; charset=utf-8": true,
		"text/html; charset=utf-8":        true,
		"text/csv; charset=utf-8":         true,
		"text/javascript; charset=utf-8":  true,
		"image/svg+xml":                   true,
		"application/yaml":                true,
		"text/event-stream":               false,
		"application/pdf":                 false,
		"application/zip":                 false,
		"application/octet-stream":        false,
		"image/png":                       false,
		"font/woff2":                      false,
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": false,
		"": false,
	} {
		if got := compressible(ct); got != want {
			t.Errorf("compressible(%q) = %v, want %v", ct, got, want)
		}
	}
}

// TestCompressStreams: a streamed answer flushes its first bytes to the
// client while the handler still works, compressed or not (an event
// stream, a zip as the personal data export writes it, JSON lines).
func TestCompressStreams(t *testing.T) {
	for _, tt := range []struct{ contentType, encoding string }{
		{"text/event-stream", ""},
		{"application/zip", ""},
		{"application/x-ndjson", ""}, // not in the list: plain
		{"text/plain; charset=utf-8", "br"},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				_, _ = io.WriteString(w, "premier\n")
				http.NewResponseController(w).Flush()
				<-release
				_, _ = io.WriteString(w, "second\n")
			})))
			defer srv.Close()
			defer close(release)
			req, _ := http.NewRequest("GET", srv.URL, nil)
			req.Header.Set("Accept-Encoding", "br, gzip")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if got := res.Header.Get("Content-Encoding"); got != tt.encoding {
				t.Fatalf("Content-Encoding %q, want %q", got, tt.encoding)
			}
			body := io.Reader(res.Body)
			if tt.encoding == "br" {
				body = decoder(t, "br", res.Body)
			}
			first := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(body).ReadString('\n')
				first <- line
			}()
			select {
			case line := <-first:
				if line != "premier\n" {
					t.Fatalf("first line %q", line)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the first bytes did not arrive before the handler ended")
			}
		})
	}
}

func TestCompressWriterHoldsSmallBodies(t *testing.T) {
	h := Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		for range 4 { // written in pieces, below the threshold in total
			_, _ = io.WriteString(w, strings.Repeat("a", compressMinSize/5))
		}
	}))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || rec.Header().Get("Content-Encoding") != "" ||
		rec.Body.Len() != 4*(compressMinSize/5) || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("%d %v %d bytes", rec.Code, rec.Header(), rec.Body.Len())
	}
}

// TestStaticFilesKeepOnlyFiles: the UI's files are kept once read, the
// paths that are no file (client-side routes, made-up paths) never are.
func TestStaticFilesKeepOnlyFiles(t *testing.T) {
	s := &Files{fsys: fstest.MapFS{
		"index.html":          {Data: []byte("<html></html>")},
		"assets/app.js":       {Data: []byte("let a")},
		"assets/app.js.br":    {Data: []byte("br")},
		"assets/app.js.gz":    {Data: []byte("gz")},
		"assets/images/x.png": {Data: []byte("png")},
	}}
	for i := range 1000 {
		if s.get(fmt.Sprintf("prod/needs/%d", i)) != nil {
			t.Fatal("a route taken for a file")
		}
	}
	if s.get("assets/images") != nil {
		t.Fatal("a directory taken for a file")
	}
	f := s.get("assets/app.js")
	if f == nil || s.get("assets/app.js") != f || len(f.variants) != 2 || f.variants[encBrotli].name != "assets/app.js" {
		t.Fatalf("file %+v", f)
	}
	kept := 0
	s.files.Range(func(any, any) bool { kept++; return true })
	if kept != 1 {
		t.Fatalf("%d names kept, want 1", kept)
	}
}

// TestSmallFilesCompressed: a text file under compressMinSize, which the
// build leaves without variants, gets them once, each only when smaller;
// a tiny file, an image or a file the build compressed keeps what it had.
func TestSmallFilesCompressed(t *testing.T) {
	page := []byte(`<!doctype html><html lang="fr"><head><meta charset="UTF-8" /><title>Primeur</title>` +
		strings.Repeat(`<link rel="modulepreload" crossorigin href="/assets/state-Cnk1GJtl.js">`, 5) +
		`</head><body><div id="root"></div></body></html>`)
	s := NewFiles(fstest.MapFS{
		"index.html":       {Data: page},
		"favicon.svg":      {Data: []byte("<svg/>")},
		"x.png":            {Data: append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 500)...)},
		"assets/app.js":    {Data: []byte(strings.Repeat("let a = 1;\n", 20))},
		"assets/app.js.gz": {Data: []byte("gz")},
	})
	f := s.get("index.html")
	if f == nil || len(f.variants) != 2 {
		t.Fatalf("index.html: %+v", f)
	}
	for enc, v := range f.variants {
		got, err := io.ReadAll(decoder(t, string(enc), strings.NewReader(string(v.data))))
		if err != nil || string(got) != string(page) || len(v.data) >= len(page) || v.etag == f.etag || v.name != "index.html" {
			t.Errorf("%s: %d bytes for %d, %v", enc, len(v.data), len(page), err)
		}
	}
	if f.variants[encBrotli].etag == f.variants[encGzip].etag {
		t.Error("one ETag for two codings")
	}
	for _, name := range []string{"favicon.svg", "x.png"} {
		if f := s.get(name); f == nil || f.variants != nil {
			t.Errorf("%s: %+v", name, f)
		}
	}
	if f := s.get("assets/app.js"); f == nil || len(f.variants) != 1 || string(f.variants[encGzip].data) != "gz" {
		t.Errorf("app.js: %+v", f)
	}
}
