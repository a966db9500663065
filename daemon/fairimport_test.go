package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// parsingHold holds places of planning.Parsing (the gate of every upload's
// parsing, in this process with the daemon under test) with work of its
// own, released by the test: which upload parses when is the test's
// choice, never the clock's.
type parsingHold struct {
	release chan struct{}
	done    chan struct{}
}

// holdParsing runs account's held work in the gate; the returned hold's
// work waits its turn like any upload.
func holdParsing(account string) *parsingHold {
	h := &parsingHold{release: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		defer func() { _ = recover() }()
		_ = planning.Parsing.Do(context.Background(), account, func() error {
			<-h.release
			return nil
		})
	}()
	return h
}

// end releases the held work and waits for its end.
func (h *parsingHold) end() {
	close(h.release)
	<-h.done
}

// untilParsing waits until the gate counts want (running, waiting) calls
// (polling its counters; nothing is timed).
func untilParsing(t *testing.T, running, waiting int64) {
	t.Helper()
	for st := planning.Parsing.Stats(); st.Running != running || st.Waiting != waiting; st = planning.Parsing.Stats() {
		time.Sleep(100 * time.Microsecond)
	}
}

// uploadAsync sends an upload from its own goroutine.
func uploadAsync(c *daemontest.Client, path string, data []byte) <-chan *daemontest.Response {
	out := make(chan *daemontest.Response, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				out <- &daemontest.Response{Status: -1, Body: []byte(fmt.Sprint(p))}
			}
		}()
		out <- c.Upload(path, "importfile", "besoins.xlsx", data)
	}()
	return out
}

// TestOneShopCannotHoldUpAnothersImport: a shop that floods the daemon
// with uploads and previews has one file at most in the parsing gate; the
// others are answered 429 at once (the French message, Retry-After,
// nothing changed), and another shop's import, sent while the flood goes
// on, is served after at most one of the flooding shop's files. The
// gate's places are taken by held work but one, so the order the files
// are parsed in is the gate's alone: the flooding shop's first file waits
// in the gate, the other shop's import waits behind it, a third account's
// held work behind that; one place is freed. When the other shop's
// answer comes, the gate has parsed exactly the flooding shop's first file
// and the other shop's — the flood's next file, sent as soon as the first
// left the gate, waits behind the third account's work.
func TestOneShopCannotHoldUpAnothersImport(t *testing.T) {
	// Not parallel: it counts the process's parsing gate, which another
	// test's uploads would take places of.
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		flood, _ := s.Register("inondation@example.fr", "Inondation", true)
		shop, _ := s.Register("epicerie@example.fr", "Épicerie", true)
		file := xlsxFixture(t, "good.xlsx")
		paths := []string{"/api/needs-loader", "/api/needs-loader/preview"}

		size := int64(planning.Parsing.Size())
		untilParsing(t, 0, 0)
		var fillers []*parsingHold
		for i := range size {
			fillers = append(fillers, holdParsing(fmt.Sprintf("filler-%d", i)))
		}
		defer func() {
			for _, h := range fillers {
				h.end()
			}
		}()
		untilParsing(t, size, 0)

		first := uploadAsync(flood, paths[0], file)
		untilParsing(t, size, 1)

		// The flood while its first file waits: imports and previews, each
		// refused at once, changing nothing.
		var rows []daemontest.Refused
		for i := range 12 {
			rows = append(rows, daemontest.Refused{Name: fmt.Sprintf("upload %d", i), Send: func() *daemontest.Response {
				return flood.Upload(paths[i%2], "importfile", "besoins.xlsx", file)
			}, Status: http.StatusTooManyRequests, Detail: planning.MsgImportOneAtATime})
		}
		s.Refuses(t, rows)
		res := flood.Upload(paths[0], "importfile", "besoins.xlsx", file).Expect(t, http.StatusTooManyRequests)
		least, most := int(planning.ParseRetry.Seconds()), int((planning.ParseRetry + planning.ParseWait).Seconds())
		if after, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || after < least || after > most {
			t.Fatalf("Retry-After %q, want the wait left to the shop's file in the gate and %d s", res.Header.Get("Retry-After"), least)
		}

		other := uploadAsync(shop, paths[0], file)
		untilParsing(t, size, 2)
		third := holdParsing("third")
		untilParsing(t, size, 3)

		// The flood goes on: each of its senders sends again as soon as it
		// is answered.
		stop := make(chan struct{})
		var mu sync.Mutex
		var answers []*daemontest.Response
		var senders sync.WaitGroup
		for i := range 3 {
			senders.Add(1)
			go func() {
				defer senders.Done()
				defer func() { _ = recover() }()
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					r := flood.Upload(paths[(i+n)%2], "importfile", "besoins.xlsx", file)
					mu.Lock()
					answers = append(answers, r)
					mu.Unlock()
				}
			}()
		}

		// Every sender refused once while the first file waits: the flood
		// is on before a place is freed.
		for refused := 0; refused < 3; {
			time.Sleep(100 * time.Microsecond) // poll the answers; nothing is timed
			mu.Lock()
			refused = 0
			for _, r := range answers {
				if r.Status == http.StatusTooManyRequests {
					refused++
				}
			}
			mu.Unlock()
		}

		done := planning.Parsing.Stats().Done
		fillers[0].end()
		fillers = fillers[1:]
		theirs := <-other
		parsed := planning.Parsing.Stats().Done - done
		mu.Lock()
		served := 0
		for _, r := range answers {
			if r.Status == http.StatusOK {
				served++
			}
		}
		mu.Unlock()
		if theirs.Status != http.StatusOK {
			t.Fatalf("the other shop's import: %d %s", theirs.Status, theirs.Body)
		}
		// The freed place's filler, the flood's first file, the other
		// shop's: nothing more of the flood's was parsed before it.
		if parsed != 3 || served != 0 {
			t.Fatalf("when the other shop's import was answered: %d parses done since the place was freed (want 3: "+
				"the filler's, the flood's first file, the other shop's), %d more of the flood's files served", parsed, served)
		}
		var imported importJSON
		theirs.JSON(t, &imported)
		if imported.DBSuccesses != 35 { // good.xlsx's cells of catalogue products
			t.Fatalf("the other shop's import applied %d cells", imported.DBSuccesses)
		}
		if r := <-first; r.Status != http.StatusOK {
			t.Fatalf("the flood's first file: %d %s", r.Status, r.Body)
		}
		// The flood's next file waits behind the third account's work, the
		// other senders refused meanwhile.
		untilParsing(t, size, 1)

		third.end()
		close(stop)
		senders.Wait()
		counts := statuses(t, answers)
		if counts[http.StatusOK]+counts[http.StatusTooManyRequests] != len(answers) || counts[http.StatusTooManyRequests] == 0 {
			t.Fatalf("the flood's answers: %v, want 200 or 429", counts)
		}
		for _, r := range answers {
			if r.Status == http.StatusTooManyRequests && r.Problem(t).Detail != planning.MsgImportOneAtATime {
				t.Fatalf("429 %s", r.Body)
			}
		}
	})
}
