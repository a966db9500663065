package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// The proposal round-trip's limit (issue 20): the same two PUTs, from the
// same clients with the same bodies, answered by a tiny huma server that
// does nothing but decode them and return constants — the answers the
// daemon gave to the same pair, byte for byte, so of the same size. It runs
// in its own process (this binary's limit-server command), as the daemon
// does, so that its CPU time per pair is read from /proc the same way; the
// clients are roundTrips', unchanged. The ratio of the two is how far the
// round-trip is from what HTTP, huma and JSON alone cost.

// roundTripLimitName names the limit's measurement.
const roundTripLimitName = "limit: the same two PUTs answered with constants of the same size (huma)"

// roundTripLimit measures the round-trip's limit after the round-trip was
// measured on d (rt is the measurement, limited the same way): it takes
// the daemon's answers to one more pair of the first trip, serves them as
// constants from a limit server, and runs roundTrips against it.
func (m *measurer) roundTripLimit(ctx context.Context, d *daemon, dir string, trips []trip, rt measurement) (measurement, error) {
	answers, err := realAnswers(d.base, trips[0])
	if err != nil {
		return measurement{}, fmt.Errorf("round-trip limit: %w", err)
	}
	ld, err := startLimitServer(ctx, dir, answers)
	if err != nil {
		return measurement{}, fmt.Errorf("round-trip limit: %w", err)
	}
	defer ld.stop()
	mss, err := m.roundTrips(ctx, []*daemon{ld}, [][]trip{trips})
	if err != nil {
		return measurement{}, fmt.Errorf("round-trip limit: %w", err)
	}
	ms := mss[0]
	ms.Name, ms.LimitOf = roundTripLimitName, rt.Name
	ms.RespBytes = len(answers[0]) + len(answers[1])
	return ms, nil
}

// realAnswers runs the pair of t twice on the daemon (so that the second
// is a correction whichever quantity its need was left at) and returns the
// bodies of the second: the proposal's answer and the review's, as the
// daemon writes them before compression.
func realAnswers(base string, t trip) ([2][]byte, error) {
	var out [2][]byte
	farm, err := login(base, t.ProducerEmail)
	if err != nil {
		return out, err
	}
	shop, err := login(base, t.ShopEmail)
	if err != nil {
		return out, err
	}
	path := "/" + t.NeedID + "/" + t.ProducerID
	for _, q := range t.Quantities {
		if out[0], err = putJSON(base+"/api/proposals"+path, farm, map[string]float64{"quantity": q, "price": t.Price}); err != nil {
			return out, err
		}
		if out[1], err = putJSON(base+"/api/proposalreview"+path, shop, map[string]bool{"accepted": true}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// putJSON sends one PUT without asking for compression and returns the
// body of its 200.
func putJSON(url, cookie string, body any) ([]byte, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPut, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("PUT %s: %s %s", url, resp.Status, out)
	}
	return out, nil
}

// startLimitServer runs this binary's limit-server on a free port with the
// answers, and waits until it answers.
func startLimitServer(ctx context.Context, dir string, answers [2][]byte) (*daemon, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files := [2]string{filepath.Join(dir, "limit-proposal.json"), filepath.Join(dir, "limit-review.json")}
	for i, f := range files {
		if err := os.WriteFile(f, answers[i], 0o644); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logPath := filepath.Join(dir, "limit-server.log")
	lf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "limit-server", "--addr", addr, "--proposal", files[0], "--review", files[1])
	cmd.Stdout, cmd.Stderr = lf, lf
	if err := cmd.Start(); err != nil {
		lf.Close()
		return nil, err
	}
	d := &daemon{cmd: cmd, base: "http://" + addr, log: logPath, done: make(chan error, 1)}
	go func() { d.done <- cmd.Wait(); lf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if resp, err := http.Get(d.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return d, nil
			}
		}
		select {
		case err := <-d.done:
			return nil, fmt.Errorf("the limit server stopped (%v); see %s", err, logPath)
		case <-ctx.Done():
			d.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			d.stop()
			return nil, errors.New("the limit server did not answer in 30 s; see " + logPath)
		}
	}
}

// limitPath, limitProposal and limitReview are the round-trip's inputs as
// the daemon declares them (daemon/trade.go): the same path parameters and
// the same required body fields, decoded and validated by huma alike.
type limitPath struct {
	NeedID     string `path:"needId" doc:"Need id"`
	ProducerID string `path:"producerId" doc:"Producer id"`
}

type limitProposal struct {
	limitPath
	Body struct {
		Quantity float64 `json:"quantity" required:"true" doc:"Quantity"`
		Price    float64 `json:"price" required:"true" doc:"Unit price"`
	}
}

type limitReview struct {
	limitPath
	Body struct {
		Accepted bool `json:"accepted" required:"true" doc:"Accepted"`
	}
}

// limitAnswer is a constant answer: the daemon's bytes, encoded as they are.
type limitAnswer struct {
	Body json.RawMessage
}

// limitServerCommand serves the round-trip's limit: PUT
// /api/proposals/{needId}/{producerId} and PUT
// /api/proposalreview/{needId}/{producerId} through huma, each answering its
// file's bytes; POST /auth/login answers a session cookie (the clients log
// in first, as on the daemon; not measured) and GET /healthz 200.
func limitServerCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("limit-server", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	proposal := fs.String("proposal", "", "answer of PUT /api/proposals (JSON file)")
	review := fs.String("review", "", "answer of PUT /api/proposalreview (JSON file)")
	_ = fs.Parse(args)
	var answers [2]json.RawMessage
	for i, f := range []string{*proposal, *review} {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if !json.Valid(b) {
			return fmt.Errorf("%s: not JSON", f)
		}
		answers[i] = b
	}
	mux := http.NewServeMux()
	config := huma.DefaultConfig("Round-trip limit", "1")
	config.DocsPath, config.SchemasPath, config.CreateHooks = "", "", nil
	api := humago.NewWithPrefix(mux, "/api", config)
	huma.Register(api, huma.Operation{OperationID: "put-proposal", Method: http.MethodPut, Path: "/proposals/{needId}/{producerId}"},
		func(_ context.Context, _ *limitProposal) (*limitAnswer, error) {
			return &limitAnswer{Body: answers[0]}, nil
		})
	huma.Register(api, huma.Operation{OperationID: "review-proposal", Method: http.MethodPut, Path: "/proposalreview/{needId}/{producerId}"},
		func(_ context.Context, _ *limitReview) (*limitAnswer, error) {
			return &limitAnswer{Body: answers[1]}, nil
		})
	mux.HandleFunc("POST /auth/login", func(w http.ResponseWriter, _ *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "limit", Path: "/"})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	log.Printf("limit server on %s", l.Addr())
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// limitsSection is the report's table of each measurement beside its limit
// measured in the same run: the ratio of their rates (operations per
// second, the measurement's over the limit's) and of their CPU per
// operation (the measured process only: the daemon, or the limit server).
func limitsSection(res results) string {
	var b strings.Builder
	for _, pr := range res.Platforms {
		for _, lim := range pr.Measurements {
			if lim.LimitOf == "" {
				continue
			}
			x, ok := find(pr.Measurements, lim.LimitOf)
			if !ok || lim.RPS == 0 || x.CPU == 0 {
				continue
			}
			if b.Len() == 0 {
				b.WriteString("\n### Against the limits measured in the same run (issue 20)\n\n")
				b.WriteString("| engine | shops | operation | p50 ms | p99 ms | op/s | CPU ms/op | limit | limit p50 ms | limit p99 ms | limit op/s | limit CPU ms/op | rate ÷ limit's | CPU × limit's |\n")
				b.WriteString("|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n")
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.1f | %s | %s | %s | %s | %.1f | %s | **1/%.1f** | %.1f |\n",
				engineName(pr.Platform.Engine), pr.Platform.Shops, x.Name, ms(x.P50), ms(x.P99), x.RPS, ms(x.CPU),
				lim.Name, ms(lim.P50), ms(lim.P99), lim.RPS, ms(lim.CPU), lim.RPS/x.RPS, x.CPU/max(lim.CPU, 0.001))
		}
	}
	if b.Len() > 0 {
		b.WriteString("\nThe limit runs in its own process with the same clients; its CPU is that process's, from `/proc` at 10 ms ticks.\n")
	}
	return b.String()
}
