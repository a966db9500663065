// Package mail sends Primeur's emails (documents, reminders, notices and
// digests, composed by core/jobs) with wneessen/go-mail: over SMTP when
// smtp.host is set, otherwise written as .eml files under
// <data-dir>/outbox so that nothing is lost.
//
// A subject is written as one printable line (core/printable): whatever the
// names it is built from hold, no control character reaches a header, so
// no CR LF can add one.
//
// Every message carries a Key naming the document and its purpose
// ("note-<delivery id>"). The key gives the Message-ID and the outbox file
// name, so a message sent again has the same identity: the outbox keeps
// one file, and mail clients can tell the copies apart. Over SMTP, a
// Journal hears each copy's point of no return (the final "." of DATA):
// core/jobs records it, so that a copy the server may have is never sent
// again on its own after a crash.
package mail

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	netmail "net/mail"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"primeur/core/config"
	"primeur/core/printable"
)

// Attachment is a file attached to a message.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Message is one email.
type Message struct {
	// Key identifies the document and purpose: letters, digits, dots,
	// dashes and underscores.
	Key         string
	To          []string
	Subject     string
	Body        string
	Attachments []Attachment
	// Date is the message's date.
	Date time.Time
	// ReplyTo, when set, is where the recipients' answers go instead of
	// the sender ("address" or "Name <address>"): the producer, for what
	// Primeur sends on its behalf.
	ReplyTo string
	// Unsubscribe, when set, is the https URL that unsubscribes the
	// recipient with one POST (RFC 8058): the message carries it as
	// List-Unsubscribe, with List-Unsubscribe-Post.
	Unsubscribe string
	// Journal, when set, hears what becomes of each recipient's copy
	// around its point of no return (SMTP only; see Journal).
	Journal Journal
}

// Journal hears, for a message sent over SMTP, what becomes of each
// recipient's copy around its point of no return, so that a sender that
// dies there can tell, once back, which copies the server may have
// (core/jobs keeps it in the database). An SMTP transaction has one such
// point: the final "." of DATA. Before it, a sender that dies leaves the
// server an unfinished message, which it discards; once the "." is on the
// wire, the server may queue the message even if the sender never reads
// its answer. The outbox has none (a second send of a key replaces the
// first's files) and calls nothing.
type Journal interface {
	// Committing is called just before the copy to `to` (as written in
	// Message.To) passes its point of no return, with the message's
	// Message-ID. Nil lets the copy go; an error stops it there: the
	// connection is closed without the final ".", so the server
	// discards it, and Send returns the error.
	Committing(to, messageID string) error
	// Accepted is called once the server has accepted the copy to `to`.
	Accepted(to string)
	// Refused is called when the server answered the copy to `to`'s
	// final "." with a refusal (4xx, 5xx): it does not have the message.
	Refused(to string)
}

// ErrUncertain marks a send whose copy passed its point of no return and
// whose answer never came (the connection broke, or timed out, after the
// final "." of DATA): the server may have the message, or not.
var ErrUncertain = errors.New("the mail server may have the message: no answer to the end of its data")

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// fallbackDomain is the right-hand side of generated Message-IDs when
// the sender's address has none.
const fallbackDomain = "primeur.local"

// domainOf is the right-hand side of the Message-IDs of mail sent as from
// ("Name <address>" or an address): the sender's own domain, so that the
// receiving servers see identifiers of the domain that sends.
func domainOf(from string) string {
	a, err := netmail.ParseAddress(from)
	if err != nil {
		return fallbackDomain
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 || at == len(a.Address)-1 {
		return fallbackDomain
	}
	return strings.ToLower(a.Address[at+1:])
}

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,200}$`)

// ErrMessage marks an error of the message itself — its key, recipients or
// attachments — as opposed to the server's: sending it again fails again.
var ErrMessage = errors.New("invalid message")

// New returns the sender the configuration asks for: SMTP when smtp.host
// is set, the outbox directory otherwise.
func New(cfg *config.Config) Sender {
	if cfg.SMTP.Host == "" {
		return Outbox{Dir: cfg.OutboxDir(), From: cfg.SMTP.From}
	}
	return SMTP{Config: cfg.SMTP}
}

// build turns a message into a go-mail message.
func build(from string, m Message) (*gomail.Msg, error) {
	if !keyPattern.MatchString(m.Key) {
		return nil, fmt.Errorf("mail: key %q: %w", m.Key, ErrMessage)
	}
	if len(m.To) == 0 {
		return nil, fmt.Errorf("mail: %s: no recipient: %w", m.Key, ErrMessage)
	}
	msg := gomail.NewMsg(gomail.WithCharset(gomail.CharsetUTF8), gomail.WithEncoding(gomail.EncodingQP))
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail: from %q: %w", from, err)
	}
	if err := msg.To(m.To...); err != nil {
		return nil, fmt.Errorf("mail: %s: recipients: %w: %w", m.Key, ErrMessage, err)
	}
	if m.ReplyTo != "" {
		a, err := netmail.ParseAddress(m.ReplyTo)
		if err != nil {
			return nil, fmt.Errorf("mail: %s: reply-to: %w: %w", m.Key, ErrMessage, err)
		}
		msg.ReplyToMailAddress(a)
	}
	msg.Subject(subject(m.Subject))
	msg.SetMessageIDWithValue(m.Key + "@" + domainOf(from))
	if m.Date.IsZero() {
		msg.SetDate()
	} else {
		msg.SetDateWithValue(m.Date)
	}
	msg.SetGenHeader(gomail.HeaderContentLang, "fr")
	if m.Unsubscribe != "" {
		if strings.ContainsAny(m.Unsubscribe, "<>\r\n ") {
			return nil, fmt.Errorf("mail: %s: unsubscribe URL: %w", m.Key, ErrMessage)
		}
		msg.SetGenHeader(gomail.HeaderListUnsubscribe, "<"+m.Unsubscribe+">")
		msg.SetGenHeader(gomail.HeaderListUnsubscribePost, "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	msg.AddAlternativeString(gomail.TypeTextHTML, HTML(m.Body))
	for _, a := range m.Attachments {
		opts := []gomail.FileOption{}
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		// Read in place, each time the message is written: AttachReader
		// would copy the file first.
		msg.AttachReadSeeker(a.Name, bytes.NewReader(a.Data), opts...)
	}
	return msg, nil
}

// SMTP sends through an SMTP server.
type SMTP struct {
	Config config.SMTP
}

// copies splits m into one message per recipient, each addressed to that
// recipient alone — a producer and a shop, or a shop's accounting, do not
// receive each other's address with a document —, recipients repeated in
// any case once. The copies share m's key, so its Message-ID: they are one
// message sent to several people.
func copies(m Message) []Message {
	seen := map[string]bool{}
	var out []Message
	for _, to := range m.To {
		k := strings.ToLower(strings.TrimSpace(to))
		if seen[k] {
			continue
		}
		seen[k] = true
		c := m
		c.To = []string{to}
		out = append(out, c)
	}
	if len(out) == 0 {
		return []Message{m} // refused by build: no recipient
	}
	return out
}

// Send delivers m over one SMTP session, one copy per recipient, each in
// a mail transaction of its own (MAIL, RCPT, DATA), with go-mail's SMTP
// client: the transaction is written here, rather than by go-mail's Send,
// so that m.Journal hears each copy's point of no return (the final "."
// of DATA, see Journal). A copy the server refuses does not stop the
// others; a broken connection does.
func (s SMTP) Send(ctx context.Context, m Message) error {
	cs := copies(m)
	// One message, written once; each copy readdressed and with its own
	// To header (copies.go).
	msg, err := build(s.Config.From, cs[0])
	if err != nil {
		return err
	}
	for _, c := range cs[1:] { // every address checked before anything is sent
		if err := msg.To(c.To...); err != nil {
			return fmt.Errorf("mail: %s: recipients: %w: %w", m.Key, ErrMessage, err)
		}
	}
	if err := msg.To(cs[0].To...); err != nil {
		return fmt.Errorf("mail: %s: recipients: %w: %w", m.Key, ErrMessage, err)
	}
	r, err := render(msg)
	if err != nil {
		return fmt.Errorf("mail: %s: %w", m.Key, err)
	}
	opts := []gomail.Option{gomail.WithPort(s.Config.Port), gomail.WithTimeout(smtpTimeout)}
	switch s.Config.TLS {
	case config.TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	case config.TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.Config.Username != "" {
		// The strongest mechanism the server offers; without TLS, PLAIN,
		// which go-mail only sends to a server on localhost.
		auth := gomail.SMTPAuthAutoDiscover
		if s.Config.TLS == config.TLSNone {
			auth = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(auth),
			gomail.WithUsername(s.Config.Username), gomail.WithPassword(s.Config.Password))
	}
	c, err := gomail.NewClient(s.Config.Host, opts...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	// Connected, greeted, secured and authenticated as the configuration
	// asks; ctx bounds this only: a transaction once begun runs to its
	// end, as go-mail's own Send does.
	client, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("mail: send %s via %s: dial: %w", m.Key, s.Config.Host, err)
	}
	var errs []error
	broken := false
	for i, c := range cs {
		if err := msg.To(c.To...); err != nil { // checked above: no error
			return fmt.Errorf("mail: %s: recipients: %w: %w", m.Key, ErrMessage, err)
		}
		ok, err := transact(client, msg, func(w io.Writer) error { return r.writeTo(w, c.To) }, c.To[0], m.Journal)
		if err != nil {
			errs = append(errs, fmt.Errorf("mail: send %s via %s: %w", m.Key, s.Config.Host, err))
		}
		if !ok {
			if err == nil && i+1 < len(cs) {
				errs = append(errs, fmt.Errorf("mail: send %s via %s: the session ended after the copy to %s", m.Key, s.Config.Host, cs[i].To[0]))
			}
			broken = true
			break
		}
	}
	if broken {
		_ = client.Close()
	} else if err := client.Quit(); err != nil && len(errs) == 0 {
		// Every copy was accepted; a failing QUIT takes nothing back.
		_ = client.Close()
	}
	return errors.Join(errs...)
}

// smtpTimeout bounds each step of an SMTP exchange: the connection, and
// each copy's transaction.
const smtpTimeout = 30 * time.Second

// transact sends the copy of msg to `to` (msg addressed to it; its bytes
// written by data) in one mail transaction on client, telling j (when set)
// of its point of no return. It returns whether the
// session can go on — after a refusal by the server it is reset for the
// next copy; after anything else (an I/O error, a journal stopping the
// copy) it cannot — and the copy's error.
func transact(client *smtp.Client, msg *gomail.Msg, data func(io.Writer) error, to string, j Journal) (bool, error) {
	if err := client.UpdateDeadline(smtpTimeout); err != nil {
		return false, err
	}
	from, err := msg.GetSender(false)
	if err != nil {
		return true, fmt.Errorf("sender: %w", err)
	}
	rcpts, err := msg.GetRecipients()
	if err != nil {
		return true, fmt.Errorf("recipients: %w", err)
	}
	// A refusal before the end of DATA: the server has nothing; the
	// transaction is reset for the next copy.
	refused := func(step string, err error) (bool, error) {
		var reply *textproto.Error
		if !errors.As(err, &reply) {
			return false, fmt.Errorf("%s: %w", step, err)
		}
		return client.Reset() == nil, fmt.Errorf("%s: %w", step, err)
	}
	if err := client.Mail(from); err != nil {
		return refused("MAIL FROM", err)
	}
	for _, r := range rcpts {
		if err := client.Rcpt(r); err != nil {
			return refused("RCPT TO "+r, err)
		}
	}
	w, err := client.Data()
	if err != nil {
		return refused("DATA", err)
	}
	if err := data(w); err != nil {
		return false, fmt.Errorf("write data: %w", err) // the final "." never sent
	}
	if j != nil {
		if err := j.Committing(to, msg.GetMessageID()); err != nil {
			return false, fmt.Errorf("copy to %s not sent: %w", to, err) // closed without the final "."
		}
	}
	// The point of no return: Close writes the final "." and reads the
	// server's answer.
	err = w.Close()
	var reply *textproto.Error
	switch {
	case err == nil:
		if j != nil {
			j.Accepted(to)
		}
		return client.Reset() == nil, nil
	case errors.As(err, &reply):
		if j != nil {
			j.Refused(to)
		}
		return client.Reset() == nil, fmt.Errorf("end of data: %w", err)
	default:
		return false, fmt.Errorf("end of data: %w: %w", ErrUncertain, err)
	}
}

// Outbox writes each message as <Dir>/<key>.eml, one file per recipient's
// copy: <key>.eml for the first, <key>.2.eml, <key>.3.eml… for the others.
type Outbox struct {
	Dir  string
	From string
}

// Send writes m's copies to the outbox: each into a temporary file renamed
// into place, so a reader never sees half a message and a second send of
// the same key replaces the first. The copies are one message built once,
// readdressed for each.
func (o Outbox) Send(_ context.Context, m Message) error {
	cs := copies(m)
	msg, err := build(o.From, cs[0])
	if err != nil {
		return err
	}
	readdress := func(c Message) error {
		if err := msg.To(c.To...); err != nil {
			return fmt.Errorf("mail: %s: recipients: %w: %w", m.Key, ErrMessage, err)
		}
		return nil
	}
	for _, c := range cs[1:] { // every address checked before anything is written
		if err := readdress(c); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return fmt.Errorf("mail: outbox: %w", err)
	}
	// Written once, each copy with its own To header (copies.go).
	if err := readdress(cs[0]); err != nil {
		return err
	}
	r, err := render(msg)
	if err != nil {
		return fmt.Errorf("mail: %s: %w", m.Key, err)
	}
	w := bufio.NewWriterSize(nil, 64<<10)
	for i, c := range cs {
		name := m.Key
		if i > 0 {
			name += "." + strconv.Itoa(i+1)
		}
		if err := o.write(name, func(w io.Writer) error { return r.writeTo(w, c.To) }, w); err != nil {
			return err
		}
	}
	return nil
}

// write writes a message to the outbox as name, through w.
func (o Outbox) write(name string, data func(io.Writer) error, w *bufio.Writer) error {
	tmp, err := os.CreateTemp(o.Dir, ".tmp-*.eml")
	if err != nil {
		return fmt.Errorf("mail: outbox: %w", err)
	}
	w.Reset(tmp)
	err = data(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		err = fmt.Errorf("mail: outbox: write %s: %w", name, err)
	} else if err = tmp.Close(); err != nil {
		err = fmt.Errorf("mail: outbox: %w", err)
	} else if err = os.Rename(tmp.Name(), o.Path(name)); err != nil {
		err = fmt.Errorf("mail: outbox: %w", err)
	}
	if err != nil {
		tmp.Close() // a second close only fails
		os.Remove(tmp.Name())
	}
	return err
}

// Path is the file a message key is written to.
func (o Outbox) Path(key string) string {
	return filepath.Join(o.Dir, strings.TrimSpace(key)+".eml")
}

// urlRe finds the web addresses of a plain-text body.
var urlRe = regexp.MustCompile(`https?://[^\s<>"]+[^\s<>".,;:!?)]`)

// HTML is the HTML alternative of a plain-text body, for mail clients that
// show HTML only or better: the same words, escaped, a paragraph per block
// of lines, a line break per line, web addresses as links. It is derived
// from the text, so that the two parts always say the same.
func HTML(body string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"fr\"><head><meta charset=\"utf-8\"></head>\n" +
		"<body style=\"font-family: sans-serif; line-height: 1.4\">\n")
	for _, para := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		b.WriteString("<p>")
		for i, line := range strings.Split(strings.Trim(para, "\n"), "\n") {
			if i > 0 {
				b.WriteString("<br>\n")
			}
			last := 0
			for _, loc := range urlRe.FindAllStringIndex(line, -1) {
				b.WriteString(html.EscapeString(line[last:loc[0]]))
				u := html.EscapeString(line[loc[0]:loc[1]])
				b.WriteString(`<a href="` + u + `">` + u + `</a>`)
				last = loc[1]
			}
			b.WriteString(html.EscapeString(line[last:]))
		}
		b.WriteString("</p>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// MaxSubject bounds a subject, in characters: names people type go into
// subjects, and mail clients cut long ones anyway.
const MaxSubject = 200

// subject is m's subject on one printable line, cut at MaxSubject
// characters with an ellipsis.
func subject(s string) string {
	s = printable.Line(s)
	if utf8.RuneCountInString(s) <= MaxSubject {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:MaxSubject-1])) + "…"
}

// Signature closes every email Primeur sends: its name, and the site's
// address when baseURL is set.
func Signature(baseURL string) string {
	s := "\n-- \nPrimeur, la plateforme des producteurs locaux et des magasins"
	if baseURL != "" {
		s += "\n" + baseURL
	}
	return s + "\n"
}
