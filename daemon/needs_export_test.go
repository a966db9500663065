package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core/planning"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// ConstantNeeds is the limit of GET /api/needs (issue 20): a huma API
// configured as the daemon's (apiConfig, the same operation middlewares
// but the session's) serving GET /api/needs with the operation's input
// and output types and always the same value, built once by the caller,
// behind the middlewares every answer of the daemon goes through (request
// id, metrics, request log, compression, panics, security headers). What
// it leaves out is the request's own work: the session's lookup and the
// reads of the needs.
func (d *Daemon) ConstantNeeds(needs []planning.View) http.Handler {
	mux := http.NewServeMux()
	api := humago.New(mux, apiConfig())
	api.UseMiddleware(textCheck.CheckJSONBody)
	api.UseMiddleware(httpx.RetryLater(store.BusyRetryAfter))
	huma.Register(api, huma.Operation{
		OperationID: "list-needs", Method: http.MethodGet, Path: "/api/needs", Tags: []string{"Needs"},
		Summary: "List needs",
	}, func(context.Context, *ListNeedsInput) (*NeedsOutput, error) {
		return &NeedsOutput{Body: needs}, nil
	})
	return d.middlewares(mux)
}
