package httpx

import (
	"bufio"
	"context"
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
	"github.com/klauspost/compress/zstd"
)

// decoder reads a body in its coding.
func decoder(t *testing.T, enc string, r io.Reader) io.Reader {
	t.Helper()
	switch enc {
	case "br":
		return brotli.NewReader(r)
	case "zstd":
		zr, err := zstd.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(zr.Close)
		return zr
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
		{"gzip, deflate, br, zstd", []encoding{encZstd, encGzip, encBrotli}}, // Chromium's
		{"gzip, deflate", []encoding{encGzip}},
		{"br", []encoding{encBrotli}},
		{"x-gzip", []encoding{encGzip}},
		{"GZIP, BR", []encoding{encGzip, encBrotli}},
		{"gzip, deflate, br", []encoding{encGzip, encBrotli}}, // Safari's
		{"br;q=0.5, gzip", []encoding{encGzip, encBrotli}},
		{"br;q=0.8, gzip;q=0.8", []encoding{encGzip, encBrotli}},
		{"zstd;q=0.5, br", []encoding{encBrotli, encZstd}},
		{"br ; q=0.9 , gzip;q=1.0", []encoding{encGzip, encBrotli}},
		{"br;q=0, gzip", []encoding{encGzip}},
		{"gzip;q=0, br;q=0", nil},
		{"*", []encoding{encZstd, encGzip, encBrotli}},
		{"*;q=0.5, br;q=0", []encoding{encZstd, encGzip}},
		{"*;q=0", nil},
		{"identity", nil},
		{"deflate, zstd", []encoding{encZstd}},
		{"deflate, compress", nil},
		{"br;q=0.3, identity;q=0.5", nil},
		{"br;q=0.5, gzip;q=0.2, identity;q=0.4", []encoding{encBrotli}},
		{"br;q=abc, gzip", []encoding{encGzip}},
		{"br;q=2", nil},
		{"gzip;q=0.2, gzip;q=0.9, br;q=0.5", []encoding{encGzip, encBrotli}},
	}
	// The precompressed files: brotli first on a tie, no zstd.
	for header, want := range map[string][]encoding{
		"gzip, deflate, br, zstd": {encBrotli, encGzip},
		"br;q=0.5, gzip":          {encGzip, encBrotli},
		"zstd":                    nil,
	} {
		if got := preferences(header, bySize); !slices.Equal(got, want) {
			t.Errorf("preferences(%q, bySize) = %v, want %v", header, got, want)
		}
	}
	for _, tt := range tests {
		if got := preferences(tt.header, byCost); !slices.Equal(got, tt.want) {
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
		{"application/json", "zstd"},
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
			req.Header.Set("Accept-Encoding", "br, gzip;q=0.9, zstd;q=0.9")
			if tt.encoding == "zstd" {
				req.Header.Set("Accept-Encoding", "zstd, br;q=0.9")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if got := res.Header.Get("Content-Encoding"); got != tt.encoding {
				t.Fatalf("Content-Encoding %q, want %q", got, tt.encoding)
			}
			body := io.Reader(res.Body)
			if tt.encoding != "" {
				body = decoder(t, tt.encoding, res.Body)
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

// TestCompressSlots: no more answers are compressed at once than there
// are slots; the next waits for one to be free, and goes out as it is if
// its request ends while it waits.
func TestCompressSlots(t *testing.T) {
	body := strings.Repeat("des tomates, des courgettes, des poireaux\n", 100)
	release := make(chan struct{})
	compressing := make(chan struct{}, 4)
	h := compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, body) // past compressMinSize: takes a slot
		compressing <- struct{}{}
		if r.URL.Path == "/hold" {
			<-release
		}
	}), 2)
	get := func(ctx context.Context, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	held := make(chan *httptest.ResponseRecorder, 2)
	for range 2 {
		go func() { held <- get(context.Background(), "/hold") }()
		<-compressing
	}
	third := make(chan *httptest.ResponseRecorder, 1)
	go func() { third <- get(context.Background(), "/") }()
	select {
	case <-compressing:
		t.Fatal("a third answer was compressed while both slots were taken")
	case <-time.After(100 * time.Millisecond):
	}
	// A request that ends while it waits goes out as it is.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rec := get(ctx, "/"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != body {
		t.Fatalf("a request ended while waiting: Content-Encoding %q, %d bytes", rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	<-compressing
	close(release) // the two held answers end: the third gets a slot
	for _, c := range []chan *httptest.ResponseRecorder{held, held, third} {
		rec := <-c
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q, want gzip", rec.Header().Get("Content-Encoding"))
		}
		got, err := io.ReadAll(decoder(t, "gzip", rec.Body))
		if err != nil || string(got) != body {
			t.Fatalf("body %d bytes, %v", len(got), err)
		}
	}
}
