package daemon_test

import (
	"net/http"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// TestUnchangedAnswersCostNothing: a GET of the API sent again with the
// ETag of its last answer is answered 304 with no body and nothing
// compressed, through the daemon's own middlewares, until the data changes;
// another account holding the tag of an answer that is not its own gets
// its own (issue 42).
func TestUnchangedAnswersCostNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie du Lac", true)
		other, _ := s.Register("other@example.fr", "Autre magasin", true)
		get := func(c *daemontest.Client, ifNoneMatch string) *daemontest.Response {
			req, err := http.NewRequest(http.MethodGet, s.URL+"/api/user", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
			if ifNoneMatch != "" {
				req.Header.Set("If-None-Match", ifNoneMatch)
			}
			return c.Raw(req)
		}

		first := get(shop, "").Expect(t, http.StatusOK)
		tag := first.Header.Get("ETag")
		if tag == "" || first.Header.Get("Content-Encoding") != "zstd" || len(first.Body) == 0 {
			t.Fatalf("first load: ETag %q, Content-Encoding %q, %d bytes", tag, first.Header.Get("Content-Encoding"), len(first.Body))
		}
		again := get(shop, tag).Expect(t, http.StatusNotModified)
		if len(again.Body) != 0 || again.Header.Get("Content-Encoding") != "" || again.Header.Get("ETag") != tag {
			t.Fatalf("revalidated: %d bytes, Content-Encoding %q, ETag %q (want %q)", len(again.Body),
				again.Header.Get("Content-Encoding"), again.Header.Get("ETag"), tag)
		}
		if cc := again.Header.Get("Cache-Control"); cc != "no-store" {
			t.Fatalf("revalidated: Cache-Control %q, want no-store (no copy on the browser's disk)", cc)
		}

		// Another account with this tag: its own answer.
		if theirs := get(other, tag).Expect(t, http.StatusOK); theirs.Header.Get("ETag") == tag {
			t.Fatal("another account's answer has the same ETag")
		}

		// A change: a new answer, a new tag.
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "45.9", "longitude": "6.12"}).Expect(t, http.StatusOK)
		changed := get(shop, tag).Expect(t, http.StatusOK)
		if changed.Header.Get("ETag") == tag || len(changed.Body) == 0 {
			t.Fatalf("after a change: ETag %q (was %q), %d bytes", changed.Header.Get("ETag"), tag, len(changed.Body))
		}
		get(shop, changed.Header.Get("ETag")).Expect(t, http.StatusNotModified)
	})
}
