package daemon

import (
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// The OpenAPI document (served at /openapi.json, printed by `primeur
// openapi`) is what huma derives from the operations, finished here with
// what huma cannot see: how a request is authenticated, the routes served by
// plain handlers on the mux (plainRoutes, each served with its description),
// that any other error is a problem, and that a pointer to an object may be
// null. tools/contract lints it with
// redocly and runs a generated client against the real daemon; daemontest
// checks every answer of the Go tests against it.

// Names of the security schemes.
const (
	schemeSession     = "session"
	schemeHostSession = "hostSession"
	schemeMetrics     = "metricsToken"
)

// sessionSecurity is the security requirement of an operation that needs a
// session: the cookie under either of its names (one per configuration).
var sessionSecurity = []map[string][]string{{schemeSession: {}}, {schemeHostSession: {}}}

// publicSecurity is the requirement of an operation open to visitors.
var publicSecurity = []map[string][]string{}

// tags are the groups of operations, in the order the reference shows them.
var tags = []*huma.Tag{
	{Name: "Authentication", Description: "Registration, login and logout: the session cookie."},
	{Name: "User", Description: "The user load (everything the screens show after login) and the profile."},
	{Name: "Map", Description: "The map of shops by its visible area: the shops of the area with their score, or their clusters; a shop's name."},
	{Name: "Activity", Description: "The activity feed: the events a user emitted or is the target of."},
	{Name: "Needs", Description: "A shop's monthly needs per product: one by one, in bulk, from an Excel file or the standard import."},
	{Name: "Team", Description: "An organisation's members and their roles, invitations by email, leaving, and the switch between a person's organisations."},
	{Name: "Products", Description: "A producer's own products: each of a catalogue type, with its name, sale unit, labels, months, reference price and photo."},
	{Name: "Proposals", Description: "The negotiation on a need: proposals, counter-proposals, corrections and their answers."},
	{Name: "Deliveries", Description: "Planned and done deliveries: the shop's changes and cancellations, the producer's claims and the shop's answers."},
	{Name: "Payments", Description: "What each shop owes each producer: balances of invoices, complementary invoices and credit notes, and the payments recorded, declared, confirmed or undone."},
	{Name: "Rewards", Description: "The ambassador programme: a shop's standing and its pledged contribution (the scores are on the map)."},
	{Name: "Supply", Description: "A shop's stock projection and supply advice."},
	{Name: "Statistics", Description: "A user's purchases or sales per product and month, for the progression statistics."},
	{Name: "Places", Description: "The reference of French communes and postal codes, for the map's search and the profile's address."},
	{Name: "Documents", Description: "Delivery notes and invoices as PDF files, for the two parties of an order."},
	{Name: "Accounting", Description: "The accounts of a producer's or a shop's FEC, and the months it can export."},
	{Name: "Public files", Description: "Files for everyone: the product catalogue and an example import file."},
	{Name: "Site", Description: "What every visitor may know of the platform from its operator's settings: the accessibility contact."},
	{Name: "Operations", Description: "For the people running the daemon: health and metrics."},
}

func securitySchemes() map[string]*huma.SecurityScheme {
	const cookie = "The session cookie, set by POST /auth/login and POST /auth/register (HttpOnly, SameSite=Lax, " +
		"Path=/) and cleared by GET /auth/logout; sessions end after 14 idle days, 30 days after the login at most. "
	return map[string]*huma.SecurityScheme{
		schemeSession: {
			Type: "apiKey", In: "cookie", Name: "primeur_session",
			Description: cookie + "This name without secure cookies (the default, plain http).",
		},
		schemeHostSession: {
			Type: "apiKey", In: "cookie", Name: "__Host-primeur_session",
			Description: cookie + "This name, and the Secure attribute, with secure cookies (`secure-cookies`, " +
				"or a `base-url` in https): browsers then accept it only over https. A daemon reads only the name " +
				"of its own configuration.",
		},
		schemeMetrics: {
			Type: "http", Scheme: "bearer",
			Description: "The `metrics.token` setting, for a client on another machine; a client on the daemon's " +
				"machine (a loopback peer whose request no proxy forwarded) needs none.",
		},
	}
}

// finishDocument completes the OpenAPI document once every route is
// registered.
func (d *Daemon) finishDocument() {
	doc := d.api.OpenAPI()
	for path, item := range doc.Paths {
		if item.Get != nil && strings.HasPrefix(path, "/api/") {
			revalidated(item.Get)
		}
		for _, op := range pathOperations(item) {
			if op.Responses["default"] == nil {
				op.Responses["default"] = problemResponse(doc, "Any other error, an RFC 9457 problem whose `detail` is a French message "+
					"(400 for a malformed request, 413 for a body too large, 503 with Retry-After when the server is saturated, its "+
					"disk full or its database unreachable…)")
			}
		}
	}
	nullableObjects(doc.Components.Schemas)
	// Every problem the daemon writes has these (problem, errors.go); huma's
	// type marks them omitempty. The schema only describes answers, so the
	// change reaches no request validation.
	if p := doc.Components.Schemas.Map()["ErrorModel"]; p != nil {
		p.Required = []string{"title", "status", "detail"}
		p.PrecomputeMessages()
	}
	// The multipart upload's form struct holds a huma.FormFile, which huma
	// registers as a schema although the request body describes the file as
	// binary: nothing refers to it.
	delete(doc.Components.Schemas.Map(), "FormFile")
}

// nullableObjects documents the pointers to structs that an answer writes as
// null (no omitempty): huma describes them as the object alone (it supports
// nullable only on scalars), so each becomes "the object or null".
func nullableObjects(r huma.Registry) {
	for name, s := range r.Map() {
		t := r.TypeFromRef("#/components/schemas/" + name)
		if t == nil || t.Kind() != reflect.Struct {
			continue
		}
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			jsonName, opts, _ := strings.Cut(tag, ",")
			if f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct || jsonName == "" || jsonName == "-" ||
				strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
				continue
			}
			p := s.Properties[jsonName]
			if p == nil || p.Ref == "" {
				continue
			}
			s.Properties[jsonName] = &huma.Schema{
				Description: p.Description,
				AnyOf:       []*huma.Schema{{Ref: p.Ref}, {Type: "null"}},
			}
		}
	}
}

// revalidated documents what httpx.Revalidate does to a GET of the API:
// its JSON answer carries an ETag, and a request whose If-None-Match
// names it is answered 304 with no body.
func revalidated(op *huma.Operation) {
	etag := &huma.Param{Description: "A weak validator of the answer, a hash of its bytes: sent back in If-None-Match, " +
		"it is answered 304 while the answer has not changed", Schema: &huma.Schema{Type: "string"}}
	for status, res := range op.Responses {
		if status == "200" && res.Content["application/json"] != nil {
			if res.Headers == nil {
				res.Headers = map[string]*huma.Param{}
			}
			res.Headers["ETag"] = etag
		}
	}
	op.Parameters = append(op.Parameters, &huma.Param{Name: "If-None-Match", In: "header",
		Description: "The ETag of the answer the client holds: 304 if it is still the answer", Schema: &huma.Schema{Type: "string"}})
	op.Responses["304"] = &huma.Response{Description: "Not Modified: the answer is still the one whose ETag If-None-Match names; no body",
		Headers: map[string]*huma.Param{"ETag": etag}}
}

// problemResponse is an error answer: an RFC 9457 problem.
func problemResponse(doc *huma.OpenAPI, description string) *huma.Response {
	return &huma.Response{
		Description: description,
		Content: map[string]*huma.MediaType{
			"application/problem+json": {Schema: doc.Components.Schemas.Schema(reflect.TypeFor[huma.ErrorModel](), true, "")},
		},
	}
}

// fileResponse is a file answered with its media type, as an attachment.
func fileResponse(mediaType, description string) *huma.Response {
	return &huma.Response{
		Description: description,
		Headers: map[string]*huma.Header{
			"Content-Disposition": {
				Description: "attachment, with the file's name",
				Schema:      &huma.Schema{Type: huma.TypeString},
			},
		},
		Content: map[string]*huma.MediaType{
			mediaType: {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}},
		},
	}
}

// pathParam is a path parameter of a plain route.
func pathParam(name, description string) *huma.Param {
	return &huma.Param{
		Name: name, In: "path", Required: true, Description: description,
		Schema: &huma.Schema{Type: huma.TypeString},
	}
}

// Health is the answer of GET /healthz (health.go).
type Health struct {
	Status string `json:"status" enum:"ok,degraded,unavailable" doc:"ok when the database answers a query and the data directory has room; unavailable when the database does not answer; degraded when it does but the data directory's disk is almost full"`
	// Reasons say why the status is not ok.
	Reasons []HealthReason `json:"reasons" doc:"Why the status is not ok (empty when it is)"`
}

// HealthReason is one reason of a status other than ok.
type HealthReason struct {
	Kind    string `json:"kind" enum:"database,disk" doc:"database: the database does not answer; disk: the data directory's file system is almost full (under 1 % of it free, or 100 MB)"`
	Message string `json:"message" doc:"The reason in French, for whoever runs the platform"`
}

// plainRoute is a route served by a plain handler on the mux, outside huma,
// and its description in the document: its operation's method and path make
// the mux pattern, so that no such route is served undescribed.
type plainRoute struct {
	op      *huma.Operation
	handler http.HandlerFunc
}

// servePlainRoutes serves the documents, the public files, the health and
// the metrics on mux with plain handlers, and adds each to the document.
// /docs (the document as an HTML page) is not described.
func (d *Daemon) servePlainRoutes(mux *http.ServeMux) {
	doc := d.api.OpenAPI()
	for _, r := range d.plainRoutes(doc) {
		mux.HandleFunc(r.op.Method+" "+r.op.Path, d.roleGate(r.op, r.handler)) // roles.go
		doc.AddOperation(r.op)
	}
}

// plainRoutes are the routes outside huma, as they are served.
func (d *Daemon) plainRoutes(doc *huma.OpenAPI) []plainRoute {
	problem := func(description string) *huma.Response { return problemResponse(doc, description) }
	badQuery := problem("A path or query the daemon refuses (a control character, a dot segment…)")
	documentErrors := map[string]*huma.Response{
		"401": problem("No valid session: `detail` is `User did not provide any token`"),
		"404": problem("No such document, or one the user is not a party to"),
		"500": problem("The document could not be made; `detail` gives a reference for support"),
	}
	withErrors := func(ok map[string]*huma.Response, errs map[string]*huma.Response) map[string]*huma.Response {
		for code, r := range errs {
			ok[code] = r
		}
		return ok
	}
	return []plainRoute{
		{handler: d.printImage, op: &huma.Operation{
			OperationID: "print-reception-image", Method: http.MethodGet, Path: "/print/image/{imageId}",
			Tags: []string{"Documents"}, Summary: "A picture of a delivery's reception: a line's photo or the signature",
			Description: "For the two parties of the delivery's order (PRODUCT §16 \"Reception\"): a JPEG or PNG made " +
				"by the daemon from what the shop sent. Cache-Control private.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("imageId", "Image id (photoId or signatureId of the delivery)")},
			Responses: withErrors(map[string]*huma.Response{
				"200": {Description: "The picture", Content: map[string]*huma.MediaType{
					"image/jpeg": {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}},
					"image/png":  {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}},
				}},
			}, documentErrors),
		}},
		{handler: d.printProductPhoto, op: &huma.Operation{
			OperationID: "print-product-photo", Method: http.MethodGet, Path: "/print/product-photo/{imageId}",
			Tags: []string{"Products"}, Summary: "An image of a producer's product photo",
			Description: "For anyone signed in (PRODUCT §3 \"Producers' products\"): a JPEG made by the daemon from " +
				"what the producer sent. An image never changes: Cache-Control private, max-age of a year, immutable, " +
				"and its id as ETag (304 to If-None-Match).",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("imageId", "Image id (the end of a photo's small, medium or large URL)")},
			Responses: withErrors(map[string]*huma.Response{
				"200": {Description: "The image", Content: map[string]*huma.MediaType{
					"image/jpeg": {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}},
				}},
				"304": {Description: "Not modified: the ETag sent is the image's"},
			}, documentErrors),
		}},
		{handler: d.printNote, op: &huma.Operation{
			OperationID: "print-delivery-note", Method: http.MethodGet, Path: "/print/delivery/{orderId}/{deliveryId}",
			Tags: []string{"Documents"}, Summary: "The delivery note of a planned or done delivery (PDF)",
			Description: "For the two parties of the order; a cancelled delivery has none. A link the browser follows " +
				"with its session cookie.",
			Security: sessionSecurity,
			Parameters: []*huma.Param{
				pathParam("orderId", "Order id"), pathParam("deliveryId", "Delivery id"),
			},
			Responses: withErrors(map[string]*huma.Response{
				"200": fileResponse("application/pdf", "The delivery note, BL-<chrono>.pdf"),
			}, documentErrors),
		}},
		{handler: d.printInvoice, op: &huma.Operation{
			OperationID: "print-invoice", Method: http.MethodGet, Path: "/print/invoice/{orderId}",
			Tags: []string{"Documents"}, Summary: "The invoice of an order (PDF)",
			Description: "Rendered from what was stored when the invoice was issued; for the two parties of the " +
				"order. 404 while the order has no invoice.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("orderId", "Order id")},
			Responses: withErrors(map[string]*huma.Response{
				"200": fileResponse("application/pdf", "The invoice, <number>.pdf"),
			}, documentErrors),
		}},
		{handler: d.printCreditNote, op: &huma.Operation{
			OperationID: "print-credit-note", Method: http.MethodGet, Path: "/print/creditnote/{id}",
			Tags: []string{"Documents"}, Summary: "A credit note or complementary invoice (Factur-X PDF)",
			Description: "A document settling an accepted claim on a delivery of an invoiced order (ids in the order's " +
				"invoice.credits), rendered from what was stored when it was issued; for the two parties of the order.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("id", "Credit note id")},
			Responses: withErrors(map[string]*huma.Response{
				"200": fileResponse("application/pdf", "The credit note, <number>.pdf: a PDF/A-3b with its factur-x.xml"),
			}, documentErrors),
		}},
		{handler: d.printExport, op: &huma.Operation{
			OperationID: "export-invoices", Method: http.MethodGet, Path: "/print/invoices/{month}",
			Tags: []string{"Documents"}, Summary: "A calendar month of the producer's books for its platform and accountant (zip)",
			Description: "The FEC of the month (art. A47 A-1 LPF: its sales journal and the payments it received, on the " +
				"accounts it set, SIRENFECAAAAMMJJ.txt), each invoice, credit note and complementary invoice dated in the " +
				"month as its Factur-X PDF and CII XML, and the sales register journal-ventes-YYYY-MM.csv. A document is " +
				"in the month of its own date of issue, a payment in the month it was paid. Producers only; 404 when the " +
				"month has no document nor payment.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("month", "The calendar month, YYYY-MM")},
			Responses: withErrors(withErrors(map[string]*huma.Response{
				"200": fileResponse("application/zip", "factures-YYYY-MM.zip"),
			}, documentErrors), map[string]*huma.Response{
				"400": problem("The month is not YYYY-MM: `detail` says so in French"),
				"403": problem("The user is not a producer"),
			}),
		}},
		{handler: d.printPurchases, op: &huma.Operation{
			OperationID: "export-purchases", Method: http.MethodGet, Path: "/print/purchases/{month}",
			Tags: []string{"Documents"}, Summary: "A calendar month of the shop's books for its accountant (zip)",
			Description: "The FEC of the month (art. A47 A-1 LPF: its purchases journal and the payments it made, on the " +
				"accounts it set, SIRENFECAAAAMMJJ.txt), each document it received dated in the month as its Factur-X PDF " +
				"and CII XML in a folder per producer, and the purchases register journal-achats-YYYY-MM.csv. Shops only; " +
				"404 when the month has no document nor payment.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("month", "The calendar month, YYYY-MM")},
			Responses: withErrors(withErrors(map[string]*huma.Response{
				"200": fileResponse("application/zip", "achats-YYYY-MM.zip"),
			}, documentErrors), map[string]*huma.Response{
				"400": problem("The month is not YYYY-MM: `detail` says so in French"),
				"403": problem("The user is not a shop"),
			}),
		}},
		{handler: d.printMyData, op: &huma.Operation{
			OperationID: "export-my-data", Method: http.MethodGet, Path: "/print/mydata",
			Tags: []string{"User"}, Summary: "The user's personal data (zip)",
			Description: "RGPD art. 15 and 20: LISEZMOI.txt, compte.json (the profile), besoins.json (needs with the " +
				"user's proposals), commandes.json (orders with their deliveries), activite.json (the whole feed), " +
				"paiements.json (accounts), and documents/ (every invoice, credit note and complementary invoice the " +
				"user is a party to, Factur-X PDF). Written as it is made; one export at a time (503 with Retry-After).",
			Security: sessionSecurity,
			Responses: map[string]*huma.Response{
				"200": fileResponse("application/zip", "primeur-mes-donnees-YYYY-MM-DD.zip"),
				"401": problem("No valid session: `detail` is `User did not provide any token`"),
				"503": problem("Another export is running: `detail` says so in French; Retry-After"),
			},
		}},
		{handler: d.printStatement, op: &huma.Operation{
			OperationID: "print-statement", Method: http.MethodGet, Path: "/print/statement/{partnerId}",
			Tags: []string{"Payments"}, Summary: "A statement of account with a partner (PDF)",
			Description: "Between the user and a partner it has documents with (a shop for a producer, a producer for a " +
				"shop): every invoice, complementary invoice and credit note with what is left to pay, the payments, " +
				"and what is owed and overdue, as of today. 404 for a partner without documents.",
			Security:   sessionSecurity,
			Parameters: []*huma.Param{pathParam("partnerId", "The partner's id")},
			Responses: withErrors(map[string]*huma.Response{
				"200": fileResponse("application/pdf", "releve-YYYY-MM-DD.pdf"),
			}, documentErrors),
		}},
		d.purchaseSlipRoute(documentErrors),
		d.flatCertificateRoute(problem, documentErrors),
		d.dayPrintRoute(problem, documentErrors),
		{handler: d.printTransfer, op: &huma.Operation{
			OperationID: "get-transfer-file", Method: http.MethodGet, Path: "/print/transfer",
			Tags: []string{"Payments"}, Summary: "A SEPA credit transfer file paying invoices (shops)",
			Description: "ISO 20022 pain.001.001.09 (EPC132-08): what is left to pay of the invoices named, one transfer " +
				"per producer, from the shop's IBAN to each producer's, the invoice numbers in the remittance information, " +
				"executed on the next day. 422 with a French message when an invoice has nothing left to pay or is not the " +
				"shop's, or when the shop or a producer has no valid IBAN.",
			Security: sessionSecurity,
			Parameters: []*huma.Param{{Name: "documents", In: "query", Required: true,
				Description: "Invoice and complementary invoice ids, comma-separated (500 at most)", Schema: &huma.Schema{Type: "string"}}},
			Responses: withErrors(withErrors(map[string]*huma.Response{
				"200": fileResponse("application/xml", "virements-YYYY-MM-DD.xml, for the shop's bank"),
			}, documentErrors), map[string]*huma.Response{
				"403": problem("The user is not a shop"),
				"422": problem("The file cannot be made: `detail` says why in French"),
			}),
		}},
		{handler: d.productsCSV, op: &huma.Operation{
			OperationID: "get-products-csv", Method: http.MethodGet, Path: "/public/other/products.csv",
			Tags: []string{"Public files"}, Summary: "The product catalogue (CSV)",
			Description: "Every product with its unit, in UTF-8 with a byte order mark (spreadsheet programs then " +
				"read the accents right): the list shops write their import files from.",
			Security: publicSecurity,
			Responses: map[string]*huma.Response{
				"200": fileResponse("text/csv", "products.csv as French spreadsheet programs read it: UTF-8 with a BOM, `;` between the columns, CRLF; a header `produit;unite`, then one product a line"),
				"400": badQuery,
			},
		}},
		{handler: d.exampleXLSX, op: &huma.Operation{
			OperationID: "get-example-import", Method: http.MethodGet, Path: "/public/other/exemple_import.xlsx",
			Tags: []string{"Public files"}, Summary: "An example needs file for POST /api/needs-loader (.xlsx)",
			Description: "Made at each request, so that its twelve months start next month: importable as is. A first " +
				"row says how to fill it; a second sheet lists the catalogue with its units.",
			Security: publicSecurity,
			Responses: map[string]*huma.Response{
				"200": fileResponse(xlsxType, "exemple_import.xlsx"),
				"400": badQuery,
			},
		}},
		{handler: d.productsXLSX, op: &huma.Operation{
			OperationID: "get-products-xlsx", Method: http.MethodGet, Path: "/public/other/produits.xlsx",
			Tags: []string{"Public files"}, Summary: "The product catalogue (.xlsx)",
			Description: "Every product with its unit (kg or pièce), one sheet: the list shops may start their import file from.",
			Security:    publicSecurity,
			Responses: map[string]*huma.Response{
				"200": fileResponse(xlsxType, "produits.xlsx"),
				"400": badQuery,
			},
		}},
		{handler: d.health, op: &huma.Operation{
			OperationID: "health", Method: http.MethodGet, Path: "/healthz",
			Tags: []string{"Operations"}, Summary: "Whether this replica can serve",
			Description: "200 when the database answers a real query (the schema version) and the data directory's " +
				"disk has room; otherwise 503 with Retry-After and the reasons, so that a load balancer takes the " +
				"replica out: `unavailable` when the database does not answer, `degraded` when it does but the " +
				"disk is almost full (under 1 % of it free, or 100 MB: writes are about to be refused).",
			Security: publicSecurity,
			Responses: map[string]*huma.Response{
				"200": healthResponse(doc, "The database answers and the disk has room: `{\"status\":\"ok\",\"reasons\":[]}`"),
				"400": badQuery,
				"503": withRetryAfter(healthResponse(doc, "The database does not answer (`unavailable`), or the disk is almost full "+
					"(`degraded`); `reasons` say which, in French")),
			},
		}},
		{handler: d.serveMetrics, op: &huma.Operation{
			OperationID: "metrics", Method: http.MethodGet, Path: "/metrics",
			Tags: []string{"Operations"}, Summary: "Prometheus metrics",
			Description: "Prometheus' text exposition format: requests by route, jobs, emails, recovered panics, the " +
				"Go runtime, the process and the database pool. For a client on the daemon's machine whose request " +
				"no proxy forwarded (no Forwarded, X-Forwarded-For or X-Real-IP header) or that a proxy listed in " +
				"`trusted-proxies` names as such, or one sending the `metrics.token` setting as a bearer token.",
			Security: []map[string][]string{{}, {schemeMetrics: {}}},
			Responses: map[string]*huma.Response{
				"200": {
					Description: "The metrics",
					Content:     map[string]*huma.MediaType{"text/plain": {Schema: &huma.Schema{Type: huma.TypeString}}},
				},
				"400": badQuery,
				"401": problem("A metrics.token is configured and the request does not carry it"),
				"403": problem("No metrics.token is configured and the client is not on the daemon's machine"),
			},
		}},
	}
}

// withRetryAfter adds the Retry-After header to an answer's description.
func withRetryAfter(r *huma.Response) *huma.Response {
	if r.Headers == nil {
		r.Headers = map[string]*huma.Header{}
	}
	r.Headers["Retry-After"] = &huma.Header{
		Description: "Seconds after which to ask again",
		Schema:      &huma.Schema{Type: huma.TypeInteger},
	}
	return r
}

func healthResponse(doc *huma.OpenAPI, description string) *huma.Response {
	return &huma.Response{
		Description: description,
		Content: map[string]*huma.MediaType{
			"application/json": {Schema: doc.Components.Schemas.Schema(reflect.TypeFor[Health](), true, "")},
		},
	}
}
