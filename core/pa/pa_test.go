package pa_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/documents"
	"primeur/core/pa"
	"primeur/core/pa/patest"
	"primeur/core/terms"
)

var ctx = context.Background()

// invoice renders a real Factur-X invoice of seller to buyer (SIRETs).
func invoice(t *testing.T, number, seller, buyer string) []byte {
	t.Helper()
	party := func(name, siret string) billing.Party {
		return billing.Party{Name: name, Legal: "EARL", Capital: "15000", Address: []string{"1 rue du Marché", "74000 Annecy"},
			SIRET: siret, TVA: "FR11123456782", APE: "0113Z", Email: "contact@ferme.fr", IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882"}
	}
	inv := billing.Invoice{ID: "i", OrderID: "order-1", Month: "2026-11-01", Year: 2026, Seq: 1, Number: number,
		IssuedAt: time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), IssueDate: "2026-12-01", DueDate: "2026-12-10",
		Seller: party("Ferme 1", seller), Buyer: party("Magasin 1", buyer), VATRate: billing.VATRate}
	inv.Terms = billing.Terms(inv, terms.Default())
	inv.Notes = []billing.Note{{Chrono: 1, Date: "2026-11-03"}}
	l := billing.Line{Position: 1, Chrono: 1, Date: "2026-11-03", ProductID: "tomate", Product: "Tomate", Unit: "kg", Quantity: 1300,
		Price: decimal.Dec(250), VATRate: billing.VATRate}
	l.Amount = billing.Amount(l.Quantity, l.Price)
	inv.Lines = []billing.Line{l}
	inv.Total() // the VAT breakdown per rate and the totals, as billing issues them
	pdf, err := documents.Invoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

func start(t *testing.T, rule patest.Rule) (*patest.Server, *pa.Client) {
	t.Helper()
	srv, err := patest.Start(patest.Config{ClientID: "primeur", ClientSecret: "s3cret-du-client", Rule: rule})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		if bad := srv.Invalid(); len(bad) > 0 {
			t.Errorf("against the OpenAPI document: %q", bad)
		}
	})
	c, err := pa.New(pa.Config{FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(), ClientID: "primeur", ClientSecret: "s3cret-du-client"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// lifecycles reads every lifecycle message the PA made, in order.
func lifecycles(t *testing.T, c *pa.Client) []pa.Lifecycle {
	t.Helper()
	flows, err := c.Search(ctx, pa.Filter{FlowType: []string{pa.TypeCustomerInvoiceLC}, Direction: []string{pa.DirectionIn}})
	if err != nil {
		t.Fatal(err)
	}
	var out []pa.Lifecycle
	for _, f := range flows {
		raw, err := c.Original(ctx, f.FlowID)
		if err != nil {
			t.Fatal(err)
		}
		l, err := pa.ParseLifecycle(raw)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// TestEmbeddedDocumentIsTheVendoredOne: the local PA validates against
// testdata/pa's document, byte for byte.
func TestEmbeddedDocumentIsTheVendoredOne(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	vendored, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "pa", "AFNOR-Flow_Service-1.1.0-swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(vendored, patest.Document()) {
		t.Fatal("core/pa/patest/flow-service.json differs from testdata/pa/AFNOR-Flow_Service-1.1.0-swagger.json")
	}
}

// TestDepositSearchGet: a Factur-X invoice deposited with its SHA-256 and
// trackingId, acknowledged Ok, found by trackingId, its lifecycle 200
// Déposée read back; a rejection (213, with the rule's reason code) and
// a buyer's refusal (200 then 210) by the buyer's SIREN.
func TestDepositSearchGet(t *testing.T) {
	srv, c := start(t, func(inv patest.Invoice) patest.Decision {
		switch inv.Buyer {
		case "111222333":
			return patest.Decision{Outcome: patest.Reject, ReasonCode: "DOUBLON", Reason: "Facture en doublon"}
		case "555666777":
			return patest.Decision{Outcome: patest.Refuse, ReasonCode: "NON_CONFORME", Reason: "Marchandise non commandée"}
		}
		return patest.Decision{}
	})
	if err := c.Check(ctx); err != nil {
		t.Fatal(err)
	}
	pdf := invoice(t, "FA-2026-000001", "12345678200010", "98765432400019")
	f, err := c.Deposit(ctx, pa.Deposit{TrackingID: "doc-1", Name: "FA-2026-000001.pdf", File: pdf})
	if err != nil {
		t.Fatal(err)
	}
	if f.FlowID == "" || f.TrackingID != "doc-1" || f.SHA256 != pa.SHA256(pdf) || f.FlowSyntax != pa.SyntaxFacturX || f.FlowProfile != pa.ProfileEN16931 {
		t.Fatalf("deposit answer %+v", f)
	}
	got, err := c.Search(ctx, pa.Filter{TrackingID: "doc-1"})
	if err != nil || len(got) != 1 || got[0].FlowID != f.FlowID || got[0].Ack == nil || got[0].Ack.Status != pa.AckOk {
		t.Fatalf("search by trackingId: %+v %v", got, err)
	}
	meta, err := c.Flow(ctx, f.FlowID)
	if err != nil || meta.FlowDirection != pa.DirectionOut || meta.FlowType != pa.TypeCustomerInvoice {
		t.Fatalf("get %+v %v", meta, err)
	}
	original, err := c.Original(ctx, f.FlowID)
	if err != nil || !bytes.Equal(original, pdf) {
		t.Fatalf("original: %d bytes, %v", len(original), err)
	}
	if _, err := c.Deposit(ctx, pa.Deposit{TrackingID: "doc-2", Name: "FA-2026-000002.pdf",
		File: invoice(t, "FA-2026-000002", "12345678200010", "11122233300044")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Deposit(ctx, pa.Deposit{TrackingID: "doc-3", Name: "FA-2026-000003.pdf",
		File: invoice(t, "FA-2026-000003", "12345678200010", "55566677700011")}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, l := range lifecycles(t, c) {
		if l.Seller != "123456782" {
			t.Fatalf("seller %q", l.Seller)
		}
		seen = append(seen, fmt.Sprintf("%s %s %s %s", l.Number, l.Status, l.Label, l.ReasonCode))
	}
	want := []string{
		"FA-2026-000001 200 Déposée ",
		"FA-2026-000002 213 Rejetée DOUBLON",
		"FA-2026-000003 200 Déposée ",
		"FA-2026-000003 210 Refusée NON_CONFORME",
	}
	if !slices.Equal(seen, want) {
		t.Fatalf("lifecycles\n%q\nwant\n%q", seen, want)
	}
	if d := srv.Deposits(); d["doc-1"] != 1 || d["doc-2"] != 1 || d["doc-3"] != 1 {
		t.Fatalf("deposits %v", d)
	}
	// updatedAfter pages: after the last flow, nothing.
	all, _ := c.Search(ctx, pa.Filter{Direction: []string{pa.DirectionIn, pa.DirectionOut}})
	last := *all[len(all)-1].UpdatedAt
	if rest, err := c.Search(ctx, pa.Filter{UpdatedAfter: &last}); err != nil || len(rest) != 0 {
		t.Fatalf("after the last: %d, %v", len(rest), err)
	}
}

// raw deposits a multipart body of our own making: the checks the local PA
// makes of a file are not the client's.
func raw(t *testing.T, srv *patest.Server, info string, file []byte) (int, []byte) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"primeur"}, "client_secret": {"s3cret-du-client"}}
	resp, err := http.PostForm(srv.TokenURL(), form)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	_ = resp.Body.Close()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="flowInfo"`)
	h.Set("Content-Type", "application/json")
	p, _ := w.CreatePart(h)
	_, _ = p.Write([]byte(info))
	h = textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="f.pdf"`)
	h.Set("Content-Type", "application/pdf")
	p, _ = w.CreatePart(h)
	_, _ = p.Write(file)
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.FlowURL()+"/v1/flows", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestLocalPAChecksTheFile: a wrong SHA-256, a PDF that is not Factur-X
// and a file deposited twice are irrecevable (acknowledgement Error with
// the standard's reason code); a flowInfo against the schema is a 400 and
// is counted as invalid.
func TestLocalPAChecksTheFile(t *testing.T) {
	srv, c := start(t, nil)
	pdf := invoice(t, "FA-2026-000009", "12345678200010", "98765432400019")
	for _, tc := range []struct {
		tracking string
		info     string
		file     []byte
		reason   string
	}{
		{"bad-sum", `{"trackingId":"bad-sum","flowSyntax":"Factur-X","sha256":"` + strings.Repeat("0", 64) + `"}`, pdf, pa.ReasonChecksumMismatch},
		{"not-fx", `{"trackingId":"not-fx","flowSyntax":"Factur-X"}`, []byte("%PDF-1.7\nnot a Factur-X"), pa.ReasonInvalidSchema},
		{"good", `{"trackingId":"good","flowSyntax":"Factur-X","sha256":"` + pa.SHA256(pdf) + `"}`, pdf, ""},
		{"twice", `{"trackingId":"twice","flowSyntax":"Factur-X"}`, pdf, pa.ReasonAlreadyExistingFlow},
	} {
		status, body := raw(t, srv, tc.info, tc.file)
		if status != http.StatusAccepted {
			t.Fatalf("%s: %d %s", tc.tracking, status, body)
		}
		flows, err := c.Search(ctx, pa.Filter{TrackingID: tc.tracking})
		if err != nil || len(flows) != 1 || flows[0].Ack == nil {
			t.Fatalf("%s: %+v %v", tc.tracking, flows, err)
		}
		ack := flows[0].Ack
		switch {
		case tc.reason == "" && ack.Status != pa.AckOk,
			tc.reason != "" && (ack.Status != pa.AckError || len(ack.Details) != 1 || ack.Details[0].Code != tc.reason):
			t.Fatalf("%s: ack %+v", tc.tracking, ack)
		}
	}
	// Not the schema: flowSyntax missing, a sha256 not hexadecimal.
	for _, info := range []string{`{"trackingId":"x"}`, `{"flowSyntax":"Factur-X","sha256":"XYZ"}`, `{"flowSyntax":"PDF"}`} {
		if status, body := raw(t, srv, info, pdf); status != http.StatusBadRequest || !strings.Contains(string(body), "INVALID_REQUEST") {
			t.Fatalf("%s: %d %s", info, status, body)
		}
	}
	if n := len(srv.Invalid()); n != 3 {
		t.Fatalf("invalid requests counted: %d %q", n, srv.Invalid())
	}
	// The three above were meant to be invalid: the cleanup's check is
	// for the client's own requests.
	srv.ForgetInvalid()
}

// TestErrorsInFrench: each failure is one French sentence naming what
// failed and why, with the PA's reason.
func TestErrorsInFrench(t *testing.T) {
	srv, _ := start(t, nil)
	bad, err := pa.New(pa.Config{FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(), ClientID: "primeur", ClientSecret: "faux"})
	if err != nil {
		t.Fatal(err)
	}
	err = bad.Check(ctx)
	var e *pa.Error
	if !errors.As(err, &e) || e.Op != "token" || e.Status != http.StatusUnauthorized || e.Code != "invalid_client" {
		t.Fatalf("%#v", err)
	}
	if got := pa.French(err); got != "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : l'identifiant ou le secret du client est refusé." {
		t.Fatal(got)
	}
	wrongPath, _ := pa.New(pa.Config{FlowURL: srv.FlowURL() + "/nope", TokenURL: srv.TokenURL(), ClientID: "primeur", ClientSecret: "s3cret-du-client"})
	if got := pa.French(wrongPath.Check(ctx)); got != "Le test de la plateforme agréée a échoué : l'adresse n'existe pas sur la plateforme (vérifiez l'adresse du service de flux)." {
		t.Fatal(got)
	}
	down, _ := pa.New(pa.Config{FlowURL: "http://127.0.0.1:1/flow-service", TokenURL: "http://127.0.0.1:1/token", ClientID: "a", ClientSecret: "b"})
	if got := pa.French(down.Check(ctx)); got != "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : la plateforme ne répond pas (adresse erronée, réseau ou délai dépassé)." {
		t.Fatal(got)
	}
	if _, err := pa.New(pa.Config{FlowURL: "http://pa.example.fr/flow", TokenURL: "https://pa.example.fr/token", ClientID: "a", ClientSecret: "b"}); pa.French(err) !=
		"La connexion à la plateforme agréée est incomplète : http n'est permis que vers cette machine : https est attendu." {
		t.Fatal(pa.French(err))
	}
	refused := &pa.Error{Op: "deposit", Status: 422, Code: pa.ReasonInvalidSchema}
	if got := pa.French(refused); got != "Le dépôt de la facture sur la plateforme agréée a échoué : la demande est refusée (erreur 422, code InvalidSchema) : le fichier ne respecte pas le schéma XML de la facture." {
		t.Fatal(got)
	}
	if !refused.Refused() || refused.Temporary {
		t.Fatal("a 422 is a refusal, not temporary")
	}
}

// TestLifecycleRoundTrip: a CDAR written is read back; the standard's own
// example of a 213 (XP Z12-014 annex B, UC2) reads as such.
func TestLifecycleRoundTrip(t *testing.T) {
	l := pa.Lifecycle{ID: "m1", At: time.Date(2027, 9, 2, 10, 0, 0, 0, time.UTC), Number: "FA-2027-000001", TypeCode: "380",
		IssueDate: "20270901", Seller: "123456782", Status: pa.StatusRefused, Label: "Refusée", ReasonCode: "NON_CONFORME", Reason: "non commandé"}
	b, err := l.XML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := pa.ParseLifecycle(b)
	if err != nil || back != l {
		t.Fatalf("%+v %v\n%s", back, err, b)
	}
	example := `<rsm:CrossDomainAcknowledgementAndResponse xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100">
<rsm:ExchangedDocument><ram:ID>F202500004_213_20250701161000#380_20250701</ram:ID></rsm:ExchangedDocument>
<rsm:AcknowledgementDocument><ram:TypeCode>305</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="204">20250701161000</udt:DateTimeString></ram:IssueDateTime>
<ram:ReferenceReferencedDocument><ram:IssuerAssignedID>F202500004</ram:IssuerAssignedID><ram:StatusCode>8</ram:StatusCode><ram:TypeCode>380</ram:TypeCode>
<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20250701</qdt:DateTimeString></ram:FormattedIssueDateTime>
<ram:ProcessConditionCode>213</ram:ProcessConditionCode><ram:ProcessCondition>Rejetée</ram:ProcessCondition>
<ram:IssuerTradeParty><ram:GlobalID schemeID="0002">100000009</ram:GlobalID></ram:IssuerTradeParty>
<ram:SpecifiedDocumentStatus><ram:ReasonCode>DOUBLON</ram:ReasonCode><ram:Reason>Facture en doublon (déjà émise / réçue)</ram:Reason>
<ram:IncludedNote><ram:Content>Facture identique reçue sur une autre adresse</ram:Content><ram:SubjectCode>AHN</ram:SubjectCode></ram:IncludedNote></ram:SpecifiedDocumentStatus>
</ram:ReferenceReferencedDocument></rsm:AcknowledgementDocument></rsm:CrossDomainAcknowledgementAndResponse>`
	got, err := pa.ParseLifecycle([]byte(example))
	if err != nil || got.Number != "F202500004" || got.Status != "213" || got.Seller != "100000009" || got.ReasonCode != "DOUBLON" ||
		got.Note != "Facture identique reçue sur une autre adresse" || !got.At.Equal(time.Date(2025, 7, 1, 16, 10, 0, 0, time.UTC)) {
		t.Fatalf("%+v %v", got, err)
	}
}

// TestSecretSealed: a secret sealed opens with its key and its producer
// only; a rotated keyring opens the old and seals with the new.
func TestSecretSealed(t *testing.T) {
	path := filepath.Join(t.TempDir(), pa.KeyFile)
	if _, err := pa.LoadKeys(path); !pa.IsNoKey(err) {
		t.Fatalf("missing file: %v", err)
	}
	k, err := pa.EnsureKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	sealed, err := k.Seal("s3cret-du-client", "producer-1")
	if err != nil || strings.Contains(sealed, "s3cret") {
		t.Fatalf("%q %v", sealed, err)
	}
	if plain, err := k.Open(sealed, "producer-1"); err != nil || plain != "s3cret-du-client" {
		t.Fatalf("%q %v", plain, err)
	}
	if _, err := k.Open(sealed, "producer-2"); err == nil {
		t.Fatal("opened for another producer")
	}
	k2, err := pa.Rotate(path)
	if err != nil || k2.Current() == k.Current() {
		t.Fatalf("rotate: %v", err)
	}
	if plain, err := k2.Open(sealed, "producer-1"); err != nil || plain != "s3cret-du-client" {
		t.Fatalf("old key after rotation: %q %v", plain, err)
	}
	resealed, _ := k2.Seal("s3cret-du-client", "producer-1")
	if pa.SealedWith(resealed) != k2.Current() {
		t.Fatal(resealed)
	}
	if _, err := k.Open(resealed, "producer-1"); !pa.IsNoKey(err) {
		t.Fatalf("the old keyring knows no new key: %v", err)
	}
}

// TestDirectoryLines: the Directory Service's lines of a SIREN, through
// the local PA validating against annex B: found with its platform, none
// for a SIREN without a line, a disabled platform said so; a SIREN that is
// not 9 digits is refused before any call.
func TestDirectoryLines(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	vendored, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "pa", "AFNOR-Directory_Service-1.1.0-swagger.json"))
	if err != nil || !bytes.Equal(vendored, patest.DirectoryDocument()) {
		t.Fatalf("core/pa/patest/directory-service.json differs from testdata/pa's (%v)", err)
	}
	var lines []pa.DirectoryLine
	if err := json.Unmarshal([]byte(`[
		{"addressingIdentifier": "987654324", "siren": "987654324", "platform": {"platformType": "WK", "platformStatus": "Enabled"},
		 "legalUnit": {"businessName": "Épicerie du Lac", "administrativeStatus": "A"}},
		{"addressingIdentifier": "111222337_FACTURES", "siren": "111222337", "siret": "11122233700003", "platform": {"platformType": "WK", "platformStatus": "Disabled"}}
	]`), &lines); err != nil {
		t.Fatal(err)
	}
	srv, err := patest.Start(patest.Config{ClientID: "primeur", ClientSecret: "s3cret-du-client", Directory: lines})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := pa.New(pa.Config{FlowURL: srv.FlowURL(), TokenURL: srv.TokenURL(), ClientID: "primeur", ClientSecret: "s3cret-du-client"})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := c.Directory(srv.DirectoryURL())
	if err != nil {
		t.Fatal(err)
	}
	got, err := dir.Lines(ctx, "987654324")
	if err != nil || len(got) != 1 || got[0].AddressingIdentifier != "987654324" || !got[0].Enabled() || got[0].LegalUnit.BusinessName != "Épicerie du Lac" {
		t.Fatalf("%+v %v", got, err)
	}
	if got, err := dir.Lines(ctx, "555666775"); err != nil || len(got) != 0 {
		t.Fatalf("no line: %+v %v", got, err)
	}
	if got, err := dir.Lines(ctx, "111222337"); err != nil || len(got) != 1 || got[0].Enabled() || got[0].SIRET != "11122233700003" {
		t.Fatalf("disabled: %+v %v", got, err)
	}
	if _, err := dir.Lines(ctx, "12345"); pa.French(err) != "La consultation de l'annuaire de la plateforme agréée a échoué : un autre problème technique est survenu." {
		t.Fatal(pa.French(err))
	}
	if _, err := c.Directory("http://annuaire.example.fr"); err == nil {
		t.Fatal("plain http elsewhere accepted")
	}
	if bad := srv.Invalid(); len(bad) > 0 {
		t.Fatalf("against annex B: %q", bad)
	}
}

// TestAnswersAreBounded: an answer past MaxJSON is refused, not read
// whole; a PA that never answers ends at the client's timeout (here a
// short one: the production one is Timeout). Both are one French sentence.
func TestAnswersAreBounded(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/token":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"t","token_type":"Bearer","expires_in":3600}`))
		case "/big/v1/flows/search":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"results":[`))
			chunk := []byte(strings.Repeat(`{"flowId":"x"},`, 1000))
			for range pa.MaxJSON/len(chunk) + 2 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/slow/v1/healthcheck":
			<-release
		}
	}))
	defer srv.Close()
	defer close(release)
	big, err := pa.New(pa.Config{FlowURL: srv.URL + "/big", TokenURL: srv.URL + "/token", ClientID: "a", ClientSecret: "b"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = big.Search(ctx, pa.Filter{TrackingID: "x"})
	if got := pa.French(err); got != "La recherche des statuts sur la plateforme agréée a échoué : sa réponse dépasse la taille permise." {
		t.Fatalf("%v: %s", err, got)
	}
	slow, err := pa.New(pa.Config{FlowURL: srv.URL + "/slow", TokenURL: srv.URL + "/token", ClientID: "a", ClientSecret: "b",
		HTTP: &http.Client{Timeout: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	err = slow.Check(ctx)
	var e *pa.Error
	if !errors.As(err, &e) || e.Op != "healthcheck" || !e.Temporary || pa.French(err) !=
		"Le test de la plateforme agréée a échoué : la plateforme ne répond pas (adresse erronée, réseau ou délai dépassé)." {
		t.Fatalf("%#v: %s", err, pa.French(err))
	}
}
