package supplyui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"

	"primeur/core/supply"
)

// Client talks to a running daemon as a browser would: it logs in with
// POST /auth/login and keeps the session cookie in a jar.
type Client struct {
	base string
	http *http.Client
}

// NewClient checks the server's URL ("http://127.0.0.1:8080").
func NewClient(server string) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(server), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--server « %s » : une URL http:// ou https:// est attendue (http://127.0.0.1:8080)", server)
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	return &Client{base: u.String(), http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}, nil
}

// Account is the logged-in user as the login answers it.
type Account struct {
	ID   string `json:"_id"`
	Type string `json:"type"`
	Name string `json:"name"`
}

// Login opens a session.
func (c *Client) Login(ctx context.Context, email, password string) (Account, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	var out struct {
		User Account `json:"user"`
	}
	err := c.do(ctx, http.MethodPost, "/auth/login", body, &out)
	return out.User, err
}

// Supply fetches the projection of a window; an empty start asks for the
// current week.
func (c *Client) Supply(ctx context.Context, start string, days int) (supply.Projection, error) {
	q := url.Values{"days": {strconv.Itoa(days)}}
	if start != "" {
		q.Set("start", start)
	}
	var p supply.Projection
	err := c.do(ctx, http.MethodGet, "/api/supply?"+q.Encode(), nil, &p)
	return p, err
}

// do sends a request and decodes a JSON answer, or returns the problem's
// French detail as the error.
func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json, application/problem+json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("le serveur %s ne répond pas : %w", c.base, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var p struct {
			Detail string `json:"detail"`
		}
		if json.Unmarshal(data, &p) == nil && p.Detail != "" {
			return errors.New(p.Detail)
		}
		return fmt.Errorf("%s %s : %s", method, path, res.Status)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("réponse illisible de %s : %w", path, err)
	}
	return nil
}
