package pa

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
)

// DepositLifecycle deposits a lifecycle message the producer issues (a
// CDAR, Lifecycle.XML: the Encaissée 212 of an invoice paid) as a flow of
// syntax CDAR, named name, and returns the flow the PA made.
func (c *Client) DepositLifecycle(ctx context.Context, name string, cdar []byte) (Flow, error) {
	if len(cdar) > MaxFile {
		return Flow{}, &Error{Op: "deposit", Code: ReasonFileSizeExceeded}
	}
	info, err := json.Marshal(flowInfo{Name: name, FlowSyntax: SyntaxCDAR, SHA256: SHA256(cdar)})
	if err != nil {
		return Flow{}, fmt.Errorf("pa: lifecycle: %w", err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="flowInfo"`)
	h.Set("Content-Type", "application/json")
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(info)
	}
	if err == nil {
		h = textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
		h.Set("Content-Type", "application/xml")
		part, err = w.CreatePart(h)
	}
	if err == nil {
		_, err = part.Write(cdar)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return Flow{}, fmt.Errorf("pa: lifecycle: %w", err)
	}
	var f Flow
	err = c.do(ctx, "deposit", http.MethodPost, "/v1/flows", w.FormDataContentType(), &body, &f, MaxJSON)
	return f, err
}
