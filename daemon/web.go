package daemon

import (
	"context"
	"html/template"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"primeur/daemon/httpx"
)

// secure refuses paths and queries that break the text rule, then
// state-changing requests from other origins than the page's
// (httpx.Secure); the security headers are already set (front).
func (d *Daemon) secure(next http.Handler) http.Handler {
	return httpx.Secure(d.cfg.BaseURL, next)
}

// logRequests is the access log (httpx.AccessLog): the route is the one
// instrument found (httpx.UnmatchedRoute when none), the user the one noteUser
// recorded.
func (d *Daemon) logRequests(next http.Handler) http.Handler {
	return httpx.AccessLog(d.log, next, func(ctx context.Context) (route, user string) {
		route = httpx.UnmatchedRoute
		if info := requestOf(ctx); info != nil {
			if info.route != "" {
				route = info.route
			}
			user = info.user
		}
		return route, user
	})
}

// noteUser records, for the access log, the account a request acts as:
// its session's (requireSession, requestUser), or the one it logged in or
// registered.
func noteUser(ctx context.Context, id string) {
	if info := requestOf(ctx); info != nil {
		info.user = id
	}
}

func writeJSONProblem(w http.ResponseWriter, status int, detail string) {
	writeProblem(w, httpx.Problem(status, detail))
}

func notFound(w http.ResponseWriter, _ *http.Request) {
	writeJSONProblem(w, http.StatusNotFound, httpx.StatusDetails[http.StatusNotFound])
}

// placeholderPage is served when the binary was built without the UI.
const placeholderPage = `<!doctype html><html lang="fr"><head><meta charset="utf-8">
<title>Primeur</title></head><body><h1>Primeur</h1>
<p>L'interface n'est pas compilée dans ce binaire. Lancez <code>make build</code> puis relancez le serveur.</p>
<p>L'API est disponible : <a href="/docs">documentation</a>.</p></body></html>`

// spa serves the embedded UI: files as they are (hashed assets cached for a
// year), any other path the index page (revalidated every time) so that the
// client-side router can take it. Each file is sent in the coding the
// client prefers among those the build made next to it (name.br, name.gz:
// ui/vite.config.ts), as it is, with its own ETag (httpx.Files).
func (d *Daemon) spa() http.Handler {
	files := httpx.NewFiles(d.ui)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSONProblem(w, http.StatusMethodNotAllowed, httpx.StatusDetails[http.StatusMethodNotAllowed])
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			cache := "no-cache"
			if strings.HasPrefix(name, "assets/") {
				cache = "public, max-age=31536000, immutable"
			}
			if files.Serve(w, r, name, cache) {
				return
			}
			if strings.HasPrefix(name, "assets/") {
				notFound(w, r) // a missing asset is not a page
				return
			}
		}
		if files.Serve(w, r, "index.html", "no-cache, must-revalidate") {
			return
		}
		w.Header().Set("Cache-Control", "no-cache, must-revalidate")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(placeholderPage))
	})
}

var docsTemplate = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} {{.Version}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ddd}code{background:#f4f4f4;padding:0 .2rem}
.m{display:inline-block;min-width:4.5rem;font-weight:bold}.op{margin:.8rem 0}.d{color:#555;margin:.2rem 0 0 4.8rem}</style>
</head><body><h1>{{.Title}} <small>{{.Version}}</small></h1><p>{{.Description}}</p>
<p>Machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1), also <a href="/openapi.yaml">YAML</a>.</p>
{{range .Tags}}<h2>{{.Name}}</h2>{{range .Ops}}<div class="op"><span class="m">{{.Method}}</span><code>{{.Path}}</code> — {{.Summary}} <small>({{.ID}})</small>
{{if .Description}}<div class="d">{{.Description}}</div>{{end}}</div>{{end}}{{end}}
</body></html>`))

type docsOp struct{ Method, Path, Summary, Description, ID string }
type docsTag struct {
	Name string
	Ops  []docsOp
}

// pathOperations lists the operations of a path item by method.
func pathOperations(item *huma.PathItem) map[string]*huma.Operation {
	ops := map[string]*huma.Operation{}
	for method, op := range map[string]*huma.Operation{
		http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put,
		http.MethodDelete: item.Delete, http.MethodPatch: item.Patch,
	} {
		if op != nil {
			ops[method] = op
		}
	}
	return ops
}

// docsPage renders the API reference from the OpenAPI document, without any
// script, so it works offline and under the CSP.
func (d *Daemon) docsPage(w http.ResponseWriter, r *http.Request) {
	doc := d.api.OpenAPI()
	byTag := map[string][]docsOp{}
	for p, item := range doc.Paths {
		for method, op := range pathOperations(item) {
			tag := "Other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			byTag[tag] = append(byTag[tag], docsOp{method, p, op.Summary, op.Description, op.OperationID})
		}
	}
	var tags []docsTag
	for name, ops := range byTag {
		sort.Slice(ops, func(i, j int) bool { return ops[i].Path+ops[i].Method < ops[j].Path+ops[j].Method })
		tags = append(tags, docsTag{name, ops})
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].Name < tags[j].Name })
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := docsTemplate.Execute(w, map[string]any{
		"Title": doc.Info.Title, "Version": doc.Info.Version, "Description": doc.Info.Description, "Tags": tags,
	})
	if err != nil {
		d.log.DebugContext(r.Context(), "docs page not written", "err", err)
	}
}
