// Package mailtest runs a real SMTP server in the test process
// (emersion/go-smtp) that keeps what it receives, and reads messages back:
// headers, text body and attachments. Tests send through core/mail's SMTP
// sender to it, or read the .eml files of the outbox with Parse.
package mailtest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"primeur/core/config"
)

// Server is an SMTP server on 127.0.0.1 keeping every message.
type Server struct {
	Host     string
	Port     int
	Username string
	Password string

	mu       sync.Mutex
	received []Received
	// Fail, when set, refuses the DATA of every message with this error.
	fail error
	// hold, when set, keeps each message unanswered at holdAt until
	// closed.
	hold   chan struct{}
	holdAt Point
	held   int
	// cut, when set, closes each session once it has received a message
	// whole, without answering it.
	cut bool
	// open counts the sessions (connections past EHLO) not closed yet.
	open int
}

// Received is one message as the server got it.
type Received struct {
	From string
	To   []string
	Data []byte
}

// Start runs a server until the end of the test. With a username, the
// server requires AUTH PLAIN with these credentials.
func Start(t testing.TB, username, password string) *Server {
	t.Helper()
	s := &Server{Username: username, Password: password}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.open++
		s.mu.Unlock()
		return &session{s: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 20 << 20
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Config is the smtp.* configuration pointing at the server, without TLS.
func (s *Server) Config() config.SMTP {
	return config.SMTP{Host: s.Host, Port: s.Port, Username: s.Username, Password: s.Password,
		From: "Primeur <no-reply@primeur.local>", TLS: config.TLSNone}
}

// SetFailure makes the server refuse messages with err (nil accepts again).
func (s *Server) SetFailure(err error) {
	s.mu.Lock()
	s.fail = err
	s.mu.Unlock()
}

// Point is where Hold stops a message.
type Point int

const (
	// AfterData: the message is received whole, its final "." read, and
	// the answer to it withheld: the sender has passed its point of no
	// return and does not know it was accepted. The message counts as
	// received.
	AfterData Point = iota
	// BeforeData: the answer to RCPT TO is withheld: the sender has not
	// begun DATA, and the server has nothing.
	BeforeData
)

// Hold makes the server keep every message it receives from now on
// without answering it (the client waits for the reply to DATA) until the
// returned function is called; the message counts as received. Crash tests
// use it to stop a sender between the moment the server has a message and
// the moment the sender learns it was sent. It is HoldAt(AfterData).
func (s *Server) Hold() (release func()) { return s.HoldAt(AfterData) }

// HoldAt makes the server stop every message from now on at p, without
// answering, until the returned function is called.
func (s *Server) HoldAt(p Point) (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.hold, s.holdAt = ch, p
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.hold == ch {
				s.hold = nil
			}
			s.mu.Unlock()
			close(ch)
		})
	}
}

// CutAfterData makes the server, from now on (until called with false),
// keep each message it receives whole and close the connection without
// answering it: the sender, past its point of no return, cannot know that
// the server has the message.
func (s *Server) CutAfterData(on bool) {
	s.mu.Lock()
	s.cut = on
	s.mu.Unlock()
}

// Held is how many messages wait for their answer now, at any point (see
// Hold).
func (s *Server) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

// Sessions is how many client sessions are open. Once a killed sender's
// sessions are closed, the server has processed everything it sent.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// Messages returns what was received so far, parsed.
func (s *Server) Messages(t testing.TB) []Message {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, len(s.received))
	for i, r := range s.received {
		m := Parse(t, r.Data)
		m.Envelope = r.To
		out[i] = m
	}
	return out
}

// MessageIDs returns the Message-ID of every message received so far, in
// order of arrival, a message received twice appearing twice. It reads only
// the headers.
func (s *Server) MessageIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.received))
	for i, r := range s.received {
		if msg, err := mail.ReadMessage(bytes.NewReader(r.Data)); err == nil {
			out[i] = msg.Header.Get("Message-Id")
		}
	}
	return out
}

// Merged is Messages with the copies of one message (one Message-ID, one
// per recipient) merged into one, in arrival order, its To and Envelope
// listing every copy's: the message as its sender addressed it. A message
// sent twice shows its recipients twice.
func (s *Server) Merged(t testing.TB) []Message {
	t.Helper()
	var out []Message
	at := map[string]int{}
	for _, m := range s.Messages(t) {
		id := m.Header.Get("Message-Id")
		if i, ok := at[id]; ok && id != "" {
			out[i].To = append(out[i].To, m.To...)
			out[i].Envelope = append(out[i].Envelope, m.Envelope...)
			continue
		}
		at[id] = len(out)
		out = append(out, m)
	}
	return out
}

// Copies counts, per Message-ID, the copies each recipient (RCPT TO)
// received: a message sent to two people shows 1 for each; a message sent
// twice, 2.
func (s *Server) Copies() map[string]map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]map[string]int{}
	for _, r := range s.received {
		msg, err := mail.ReadMessage(bytes.NewReader(r.Data))
		if err != nil {
			continue
		}
		id := msg.Header.Get("Message-Id")
		if out[id] == nil {
			out[id] = map[string]int{}
		}
		for _, to := range r.To {
			out[id][strings.ToLower(to)]++
		}
	}
	return out
}

type session struct {
	s      *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != x.s.Username || password != x.s.Password {
			return errors.New("mailtest: bad credentials")
		}
		x.authed = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.Username != "" && !x.authed {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	x.s.wait(BeforeData)
	return nil
}

// wait holds the session while the server holds messages at p.
func (s *Server) wait(p Point) {
	s.mu.Lock()
	hold := s.hold
	if hold == nil || s.holdAt != p {
		s.mu.Unlock()
		return
	}
	s.held++
	s.mu.Unlock()
	<-hold
	s.mu.Lock()
	s.held--
	s.mu.Unlock()
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	if x.s.fail != nil {
		x.s.mu.Unlock()
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: x.s.fail.Error()}
	}
	x.s.received = append(x.s.received, Received{From: x.from, To: x.to, Data: data})
	cut := x.s.cut
	x.s.mu.Unlock()
	if cut {
		_ = x.conn.Close()
		return nil
	}
	x.s.wait(AfterData)
	return nil
}

func (x *session) Reset() { x.from, x.to = "", nil }

func (x *session) Logout() error {
	x.s.mu.Lock()
	x.s.open--
	x.s.mu.Unlock()
	return nil
}

// Message is a parsed email.
type Message struct {
	Header mail.Header
	// Subject is the decoded subject.
	Subject string
	// To lists the addresses of the To header.
	To []string
	// Envelope lists the RCPT TO addresses (SMTP only).
	Envelope    []string
	Body        string
	Attachments []Attachment
}

// Attachment is an attached file.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Parse reads a raw message (as received, or an outbox .eml file).
func Parse(t testing.TB, raw []byte) Message {
	t.Helper()
	m, err := parse(raw)
	if err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	return m
}

func parse(raw []byte) (Message, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Message{}, fmt.Errorf("read message: %w", err)
	}
	var out Message
	out.Header = msg.Header
	dec := new(mime.WordDecoder)
	if out.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return out, fmt.Errorf("subject: %w", err)
	}
	if list, err := msg.Header.AddressList("To"); err == nil {
		for _, a := range list {
			out.To = append(out.To, a.Address)
		}
	}
	return out, walk(&out, msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), "", msg.Body)
}

// walk reads a part, descending into multiparts.
func walk(out *Message, contentType, encoding, disposition string, body io.Reader) error {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = "text/plain"
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("multipart: %w", err)
			}
			if err := walk(out, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"),
				p.Header.Get("Content-Disposition"), p); err != nil {
				return err
			}
		}
	}
	r := body
	switch strings.ToLower(encoding) {
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, body)
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("decode part: %w", err)
	}
	_, dparams, _ := mime.ParseMediaType(disposition)
	if name := dparams["filename"]; name != "" || strings.HasPrefix(disposition, "attachment") {
		out.Attachments = append(out.Attachments, Attachment{Name: name, ContentType: mediaType, Data: data})
		return nil
	}
	if mediaType == "text/plain" {
		out.Body += string(data)
	}
	return nil
}
