package mail_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"primeur/core/mail"
	"primeur/core/mail/mailtest"
)

// journal records what a send tells its Journal, one line per call
// ("committing ferme@aravis.fr <note-abc@primeur.local>", "accepted
// ferme@aravis.fr", "refused …"), and stops the copies listed in stop at
// their point of no return.
type journal struct {
	mu    sync.Mutex
	lines []string
	stop  map[string]bool
}

func (j *journal) add(l string) {
	j.mu.Lock()
	j.lines = append(j.lines, l)
	j.mu.Unlock()
}

func (j *journal) Committing(to, id string) error {
	j.add("committing " + to + " " + id)
	if j.stop[to] {
		return errors.New("journal: taken")
	}
	return nil
}

func (j *journal) Accepted(to string) { j.add("accepted " + to) }
func (j *journal) Refused(to string)  { j.add("refused " + to) }

// TestJournalHearsThePointOfNoReturn: over SMTP, each copy's journal hears
// "committing" (with the Message-ID) before its final "." and then what
// the server answered; a copy the journal stops never reaches the server,
// nor do the copies after it; a connection lost after the final "." is
// ErrUncertain, and the server has the copy.
func TestJournalHearsThePointOfNoReturn(t *testing.T) {
	const id = "<note-abc@primeur.local>"
	for _, tt := range []struct {
		name      string
		server    func(*mailtest.Server)
		stop      string
		want      []string
		received  int
		uncertain bool
	}{
		{"accepted", nil, "", []string{
			"committing ferme@aravis.fr " + id, "accepted ferme@aravis.fr",
			"committing epicerie@lac.fr " + id, "accepted epicerie@lac.fr",
		}, 2, false},
		{"refused after the final dot", func(s *mailtest.Server) { s.SetFailure(errors.New("mailbox full")) }, "", []string{
			"committing ferme@aravis.fr " + id, "refused ferme@aravis.fr",
			"committing epicerie@lac.fr " + id, "refused epicerie@lac.fr",
		}, 0, false},
		{"stopped by the journal", nil, "ferme@aravis.fr", []string{
			"committing ferme@aravis.fr " + id,
		}, 0, false},
		{"stopped on the second copy", nil, "epicerie@lac.fr", []string{
			"committing ferme@aravis.fr " + id, "accepted ferme@aravis.fr",
			"committing epicerie@lac.fr " + id,
		}, 1, false},
		{"no answer after the final dot", func(s *mailtest.Server) { s.CutAfterData(true) }, "", []string{
			"committing ferme@aravis.fr " + id,
		}, 1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailtest.Start(t, "", "")
			if tt.server != nil {
				tt.server(srv)
			}
			j := &journal{stop: map[string]bool{tt.stop: true}}
			m := message()
			m.Journal = j
			err := mail.SMTP{Config: srv.Config()}.Send(context.Background(), m)
			if (err == nil) != (tt.name == "accepted") || errors.Is(err, mail.ErrUncertain) != tt.uncertain {
				t.Fatalf("error %v", err)
			}
			if strings.Join(j.lines, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("journal:\n%s\nwant:\n%s", strings.Join(j.lines, "\n"), strings.Join(tt.want, "\n"))
			}
			if n := len(srv.Messages(t)); n != tt.received {
				t.Fatalf("the server received %d copies, want %d", n, tt.received)
			}
		})
	}
}
