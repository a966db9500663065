package httpx

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// Files are the files of a tree (the UI's build), read from the embedded
// tree on first use and kept with their ETags and precompressed variants.
// The build compresses the files of compressMinSize bytes or more; a
// smaller text file (index.html, the one page every visit loads) is
// compressed here, once, when first read (compressSmall). Only files are
// kept: the paths of the client-side routes, and any a visitor makes up,
// are looked up each time (a stat of the embedded tree), so the map stays
// the size of ui/dist.
type Files struct {
	fsys  fs.FS
	files sync.Map // name → *staticFile
}

// staticFile is one file of the UI and the codings made of it.
type staticFile struct {
	name     string
	data     []byte
	etag     string
	variants map[encoding]*staticFile // br, gzip
}

// precompressed are the files the build writes next to a file, by coding.
var precompressed = map[encoding]string{encBrotli: ".br", encGzip: ".gz"}

// bySize is the order of the precompressed variants among the codings a
// client weighs alike: brotli's at its strongest level is the smallest.
var bySize = []encoding{encBrotli, encGzip}

// get is the file name, nil when there is none.
func (s *Files) get(name string) *staticFile {
	if f, ok := s.files.Load(name); ok {
		return f.(*staticFile)
	}
	f := s.read(name)
	if f == nil {
		return nil
	}
	for enc, ext := range precompressed {
		if v := s.read(name + ext); v != nil {
			if f.variants == nil {
				f.variants = map[encoding]*staticFile{}
			}
			v.name = name // its type is the file's
			f.variants[enc] = v
		}
	}
	if f.variants == nil && len(f.data) < compressMinSize && compressible(f.contentType()) {
		f.variants = compressSmall(f)
	}
	kept, _ := s.files.LoadOrStore(name, f)
	return kept.(*staticFile)
}

func (s *Files) read(name string) *staticFile {
	if st, err := fs.Stat(s.fsys, name); err != nil || st.IsDir() {
		return nil
	}
	data, err := fs.ReadFile(s.fsys, name)
	if err != nil {
		return nil
	}
	return &staticFile{name: name, data: data, etag: etagOf(data)}
}

// serve answers with the file in the client's preferred coding among its
// variants, through http.ServeContent (ranges, HEAD, If-None-Match).
func (f *staticFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	send := f
	if len(f.variants) > 0 {
		addVary(h)
		for _, enc := range preferences(r.Header.Get("Accept-Encoding"), bySize) {
			if v := f.variants[enc]; v != nil {
				send = v
				h.Set("Content-Encoding", string(enc))
				// ServeContent leaves the length to a writer that
				// compresses; these bytes are sent as they are.
				h.Set("Content-Length", strconv.Itoa(len(v.data)))
				break
			}
		}
	}
	h.Set("Content-Type", f.contentType())
	h.Set("ETag", send.etag)
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(send.data))
}

// NewFiles serves the files of fsys; nil serves none.
func NewFiles(fsys fs.FS) *Files { return &Files{fsys: emptyIfNil(fsys)} }

// Serve answers r with the file name of the tree, with Cache-Control
// cache, and says true; when there is no such file it writes nothing and
// says false.
func (s *Files) Serve(w http.ResponseWriter, r *http.Request, name, cache string) bool {
	f := s.get(name)
	if f == nil {
		return false
	}
	w.Header().Set("Cache-Control", cache)
	f.serve(w, r)
	return true
}

type emptyFS struct{}

func (emptyFS) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }

func emptyIfNil(f fs.FS) fs.FS {
	if f == nil {
		return emptyFS{}
	}
	return f
}

// contentType is the file's media type, by its extension or else sniffed.
// The web app manifest (manifest.webmanifest, made by vite-plugin-pwa) has
// its own type (W3C Web Application Manifest), which Go's table and most
// systems' do not know.
func (f *staticFile) contentType() string {
	if path.Ext(f.name) == ".webmanifest" {
		return "application/manifest+json"
	}
	if ct := mime.TypeByExtension(path.Ext(f.name)); ct != "" {
		return ct
	}
	return http.DetectContentType(f.data)
}

// compressSmall makes f's variants at the strongest levels, as the build
// would have (ui/vite.config.ts): brotli 11 and gzip 9, each kept only when
// smaller than the file; nil when neither is. It runs once per file, on a
// file under compressMinSize bytes.
func compressSmall(f *staticFile) map[encoding]*staticFile {
	var variants map[encoding]*staticFile
	for enc, w := range map[encoding]func(*bytes.Buffer) encoder{
		encBrotli: func(b *bytes.Buffer) encoder { return brotli.NewWriterLevel(b, brotli.BestCompression) },
		encGzip: func(b *bytes.Buffer) encoder {
			zw, _ := gzip.NewWriterLevel(b, gzip.BestCompression) // the level is valid
			return zw
		},
	} {
		var buf bytes.Buffer
		zw := w(&buf)
		if _, err := zw.Write(f.data); err != nil || zw.Close() != nil || buf.Len() >= len(f.data) {
			continue // writing to memory fails not; a larger variant is no use
		}
		if variants == nil {
			variants = map[encoding]*staticFile{}
		}
		variants[enc] = &staticFile{name: f.name, data: buf.Bytes(), etag: etagOf(buf.Bytes())}
	}
	return variants
}

// etagOf is the strong ETag of data.
func etagOf(data []byte) string {
	sum := sha256.Sum256(data)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
}
