// Command localpa runs the local approved platform of core/pa/patest as a
// process, for the browser tests (ui/e2e/einvoicing.spec.ts): the Flow
// Service a producer connects to from its profile, and a small control
// API the test drives as the PA's own screens would.
//
//	localpa --client-id ID --client-secret SECRET
//
// It prints one JSON line, {"flowUrl", "tokenUrl", "controlUrl"}, then
// serves until its standard input closes or it receives SIGTERM. The
// control API, on its own port of 127.0.0.1:
//
//	POST /webhook {"url", "token"}: the webhook its flows are told to;
//	POST /status {"seller", "number", "status", "reasonCode", "reason"}:
//	  a lifecycle status of a deposited invoice (the buyer's approval,
//	  refusal…), told to the webhook, answered once the call is answered;
//	GET /deposits: how many times each trackingId was deposited;
//	GET /invalid: the exchanges that failed the standard's document.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"primeur/core/pa/patest"
)

func main() {
	id := flag.String("client-id", "primeur-e2e", "the OAuth2 client id the token URL accepts")
	secret := flag.String("client-secret", "secret-e2e", "the OAuth2 client secret the token URL accepts")
	flag.Parse()
	srv, err := patest.Start(patest.Config{ClientID: *id, ClientSecret: *secret})
	if err != nil {
		fmt.Fprintln(os.Stderr, "localpa:", err)
		os.Exit(1)
	}
	defer srv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhook", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ URL, Token string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		srv.SetWebhook(in.URL, in.Token)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /status", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Seller, Number, Status, ReasonCode, Reason string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := srv.SetStatus(in.Seller, in.Number, in.Status, patest.Decision{ReasonCode: in.ReasonCode, Reason: in.Reason}); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		srv.WaitWebhooks()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /deposits", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(srv.Deposits())
	})
	mux.HandleFunc("GET /invalid", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(srv.Invalid())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "localpa:", err)
		os.Exit(1)
	}
	go func() { _ = http.Serve(ln, mux) }()
	out, _ := json.Marshal(map[string]string{"flowUrl": srv.FlowURL(), "tokenUrl": srv.TokenURL(), "controlUrl": "http://" + ln.Addr().String()})
	fmt.Println(string(out))

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	closed := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(closed) }()
	select {
	case <-stop:
	case <-closed:
	}
}
