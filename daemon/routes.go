package daemon

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/store"
	"primeur/daemon/httpx"
)

// routes registers every operation and handler on mux. Each concern has its
// own register function in its own file.
func (d *Daemon) routes(mux *http.ServeMux) {
	// A 503 always says when to come back: a database still busy after
	// store.DB.Tx's retries, a full gate, a request cut short.
	d.api.UseMiddleware(httpx.RetryLater(store.BusyRetryAfter))
	d.registerAuth(d.api)
	d.registerReset(d.api)
	d.registerConfirm(d.api)
	d.registerSite(d.api)
	d.registerPAWebhook(d.api)
	d.registerInvitation(d.api) // teams.go

	api := huma.NewGroup(d.api, "/api")
	api.UseMiddleware(d.requireSession, d.requireRole)
	api.UseSimpleModifier(func(op *huma.Operation) { op.Security = sessionSecurity; declareRoles(op) })
	d.registerUser(api)
	d.registerPasswordChange(api)
	d.registerEmail(api)
	d.registerClose(api)
	d.registerEvents(api)
	d.registerNeeds(api)
	d.registerTrade(api)
	d.registerDeliveries(api)
	d.registerReception(api)
	d.registerDayPlan(api)
	d.registerFees(api)
	d.registerPayments(api)
	d.registerTransfer(api)
	d.registerAccounting(api)
	d.registerImports(api)
	d.registerRewards(api)
	d.registerSupply(api)
	d.registerStats(api)
	d.registerPlaces(api)
	d.registerMap(api)
	d.registerPA(api)
	d.registerTeams(api)
	d.registerSupplied(api)
	d.registerOffers(api)
	d.registerSuggestions(api)

	d.servePlainRoutes(mux) // documents, public files, health, metrics (openapi.go)
	mux.HandleFunc("GET /docs", d.docsPage)
	for _, prefix := range []string{"/api/", "/auth/", "/print/", "/public/", "/pa/"} {
		mux.HandleFunc(prefix, notFound) // never fall through to the UI
	}
	mux.Handle("/", d.spa())
}
