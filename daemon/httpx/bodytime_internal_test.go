package httpx

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// TestWholeRequestTime runs an operation whose handler outlives its body
// deadline (100 ms here, 5 s by huma's default) on a real server, its body
// read by a middleware before huma (as TextCheck.CheckJSONBody does: the
// server then waits in the background for the connection's next bytes,
// and huma's deadline ends that wait). Without WholeRequestTime the server
// cancels the request being served; with it, the handler answers.
func TestWholeRequestTime(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patient  bool
		canceled bool
	}{
		{"huma's body deadline cancels a running handler", false, true},
		{"the whole request time lets it answer", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			api := humago.New(mux, huma.DefaultConfig("test", "1"))
			api.UseMiddleware(func(ctx huma.Context, next func(huma.Context)) {
				r, _ := humago.Unwrap(ctx)
				b, err := io.ReadAll(r.Body)
				if err != nil {
					t.Errorf("read the body: %v", err)
				}
				r.Body = io.NopCloser(bytes.NewReader(b))
				next(ctx)
			})
			if tc.patient {
				api.UseMiddleware(WholeRequestTime(time.Minute))
			}
			canceled := make(chan bool, 1)
			type in struct {
				Body struct {
					Name string `json:"name"`
				}
			}
			huma.Register(api, huma.Operation{OperationID: "slow", Method: http.MethodPost, Path: "/slow",
				BodyReadTimeout: 100 * time.Millisecond},
				func(ctx context.Context, _ *in) (*struct{}, error) {
					select {
					case <-ctx.Done():
						canceled <- true
					case <-time.After(600 * time.Millisecond):
						canceled <- false
					}
					return nil, nil
				})
			srv := httptest.NewServer(mux)
			defer srv.Close()
			res, err := srv.Client().Post(srv.URL+"/slow", "application/json", strings.NewReader(`{"name":"x"}`))
			if err == nil {
				defer res.Body.Close()
			}
			if got := <-canceled; got != tc.canceled {
				t.Fatalf("handler's context canceled: %v, want %v", got, tc.canceled)
			}
			if !tc.canceled && (err != nil || res.StatusCode != http.StatusNoContent) {
				t.Fatalf("answer: %v %v, want 204", res, err)
			}
		})
	}
}
