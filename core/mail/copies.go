package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	gomail "github.com/wneessen/go-mail"
)

// rendered is a message written once for all its copies (issue 42: the
// invoice run's CPU): go-mail writes a message's copies alike but for
// their To header — its multipart boundaries, chosen at the first write,
// stay — and encodes the attachments anew at each write (base64 into a
// buffer grown as it goes), which for an invoice's PDF was a fifth of
// sending it. The copies are the bytes before the To header, the copy's
// own To header as go-mail writes it, and the bytes after.
type rendered struct {
	head, tail []byte
}

// render writes msg once.
func render(msg *gomail.Msg) (rendered, error) {
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return rendered{}, fmt.Errorf("mail: write: %w", err)
	}
	all := b.Bytes()
	start, end, err := toHeader(all)
	if err != nil {
		return rendered{}, err
	}
	return rendered{head: all[:start], tail: all[end:]}, nil
}

// writeTo writes the copy of the message addressed to `to` into w.
func (r rendered) writeTo(w io.Writer, to []string) error {
	line, err := toLine(to)
	if err != nil {
		return err
	}
	for _, part := range [][]byte{r.head, line, r.tail} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// toLine is the To header of `to`, as go-mail writes it (folded lines
// included), with its line end.
func toLine(to []string) ([]byte, error) {
	m := gomail.NewMsg()
	if err := m.To(to...); err != nil {
		return nil, fmt.Errorf("mail: recipients: %w: %w", ErrMessage, err)
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("mail: write: %w", err)
	}
	start, end, err := toHeader(b.Bytes())
	if err != nil {
		return nil, err
	}
	return b.Bytes()[start:end], nil
}

// errNoTo is a written message without its To header where render looks.
var errNoTo = errors.New("mail: no To header in the written message")

// toHeader finds the To header in a written message's header block: from
// the start of its line to the end of its last folded line, line end
// included.
func toHeader(msg []byte) (start, end int, err error) {
	headers := msg
	if i := bytes.Index(msg, []byte("\r\n\r\n")); i >= 0 {
		headers = msg[:i+2]
	}
	// "To: " and its value, or "To:" and the value on the next, folded
	// line (a long first address).
	switch {
	case bytes.HasPrefix(headers, []byte("To:")):
		start = 0
	default:
		i := bytes.Index(headers, []byte("\r\nTo:"))
		if i < 0 {
			return 0, 0, errNoTo
		}
		start = i + 2
	}
	end = start
	for {
		i := bytes.Index(headers[end:], []byte("\r\n"))
		if i < 0 {
			return 0, 0, errNoTo
		}
		end += i + 2
		if end >= len(headers) || (headers[end] != ' ' && headers[end] != '\t') {
			return start, end, nil
		}
	}
}
