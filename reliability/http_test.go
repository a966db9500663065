package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/textproto"
	"testing"
)

const password = "motdepasse1"

// client is a logged-in API client of a daemon.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

// register creates an account on the daemon at base and returns its
// logged-in client.
func register(t *testing.T, base, email string, shop bool) *client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &client{t: t, base: base, http: &http.Client{Jar: jar}}
	status, body, err := c.json("POST", "/auth/register", map[string]any{
		"email": email, "password": password, "name": email, "distributor": shop,
	})
	if err != nil || status != http.StatusCreated {
		t.Fatalf("register %s: %d %s %v", email, status, body, err)
	}
	return c
}

// login opens a session on the daemon at base.
func login(t *testing.T, base, email string) *client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &client{t: t, base: base, http: &http.Client{Jar: jar}}
	status, body, err := c.json("POST", "/auth/login", map[string]any{"email": email, "password": password})
	if err != nil || status != http.StatusOK {
		t.Fatalf("login %s: %d %s %v", email, status, body, err)
	}
	return c
}

func (c *client) json(method, path string, body any) (int, []byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(data))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req)
}

func (c *client) do(req *http.Request) (int, []byte, error) {
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, err
}

// multipartFile is the form of a needs upload: field importfile.
func multipartFile(name string, data []byte) (contentType string, body []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="importfile"; filename=%q`, name))
	h.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	part, _ := w.CreatePart(h)
	_, _ = part.Write(data)
	_ = w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

// importResult is the part of POST /api/needs-loader's answer the tests
// read.
type importResult struct {
	DBSuccesses int               `json:"dbSuccesses"`
	DBErrors    []json.RawMessage `json:"dbErrors"`
	Missing     []string          `json:"productsMissing"`
}

// upload sends a needs file; err is a transport error (the daemon died).
func (c *client) upload(name string, data []byte) (int, []byte, error) {
	contentType, body := multipartFile(name, data)
	req, err := http.NewRequest("POST", c.base+"/api/needs-loader", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return c.do(req)
}

// mustUpload sends a needs file that must be applied in full.
func (c *client) mustUpload(name string, data []byte) importResult {
	c.t.Helper()
	status, body, err := c.upload(name, data)
	if err != nil || status != http.StatusOK {
		c.t.Fatalf("upload %s: %d %s %v", name, status, body, err)
	}
	var res importResult
	if err := json.Unmarshal(body, &res); err != nil {
		c.t.Fatal(err)
	}
	if len(res.DBErrors) != 0 || len(res.Missing) != 0 {
		c.t.Fatalf("upload %s: %s", name, body)
	}
	return res
}
