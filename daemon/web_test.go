package daemon_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

func TestSPA(t *testing.T) {
	t.Parallel()
	ui := fstest.MapFS{
		"index.html":          {Data: []byte("<html>app</html>")},
		"assets/index-abc.js": {Data: []byte("console.log(1)")},
		"favicon.svg":         {Data: []byte("<svg/>")},
	}
	s := daemontest.New(t, storetest.SQLite(t), daemontest.WithUI(ui))
	c := s.Client()
	tests := []struct {
		path, body, cache string
		status            int
	}{
		{"/", "app", "no-cache, must-revalidate", 200},
		{"/dis/needs", "app", "no-cache, must-revalidate", 200},
		{"/landing/login", "app", "no-cache, must-revalidate", 200},
		{"/assets/index-abc.js", "console.log", "public, max-age=31536000, immutable", 200},
		{"/favicon.svg", "<svg", "no-cache", 200},
		{"/assets/missing.js", "Ressource introuvable", "", 404},
		{"/api/unknown", "Ressource introuvable", "", 404},
		{"/auth/unknown", "Ressource introuvable", "", 404},
		{"/print/delivery/x/y", "", "", 0},
		{"/public/other/nothing.txt", "Ressource introuvable", "", 404},
	}
	for _, tt := range tests {
		res := c.Do("GET", tt.path, nil)
		if tt.status == 0 { // owned by another concern; only never the UI
			if strings.Contains(string(res.Body), "<html>app") {
				t.Errorf("%s fell through to the UI", tt.path)
			}
			continue
		}
		if res.Status != tt.status || !strings.Contains(string(res.Body), tt.body) {
			t.Errorf("%s: %d %q", tt.path, res.Status, res.Body)
		}
		if tt.cache != "" && res.Header.Get("Cache-Control") != tt.cache {
			t.Errorf("%s: Cache-Control %q, want %q", tt.path, res.Header.Get("Cache-Control"), tt.cache)
		}
	}
}

func TestPlaceholderWithoutUI(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	res := s.Client().Do("GET", "/dis/needs", nil).Expect(t, 200)
	if !strings.Contains(string(res.Body), "make build") {
		t.Fatalf("placeholder page: %s", res.Body)
	}
}

func TestOpenAPIAndDocs(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	s.Client().Do("GET", "/openapi.json", nil).Expect(t, 200).JSON(t, &doc)
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if op.OperationID == "" || strings.ToLower(op.OperationID) != op.OperationID {
				t.Errorf("%s %s: operation id %q is not kebab-case", method, path, op.OperationID)
			}
		}
	}
	if _, ok := doc.Paths["/api/user"]["put"]; !ok {
		t.Fatal("PUT /api/user missing from the OpenAPI document")
	}
	res := s.Client().Do("GET", "/docs", nil).Expect(t, 200)
	if !strings.Contains(string(res.Body), "/auth/login") {
		t.Fatal("docs page lacks the operations")
	}
}
