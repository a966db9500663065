package commands

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestServeStartsAndStopsGracefully(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--demo", "--log-level", "warn"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	var url string
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		if i := strings.Index(lines.Text(), "http://"); i >= 0 {
			url = lines.Text()[i:]
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		t.Fatal("serve printed no address")
	}
	res, err := http.Get(url + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestShiftedClock(t *testing.T) {
	real := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tick := real
	clock, err := shiftedClock("2027-02-03T09:00:00+01:00", func() time.Time { return tick })
	if err != nil {
		t.Fatal(err)
	}
	if got := clock(); !got.Equal(time.Date(2027, 2, 3, 8, 0, 0, 0, time.UTC)) {
		t.Fatalf("clock starts at %v", got)
	}
	tick = real.Add(90 * time.Minute)
	if got := clock(); !got.Equal(time.Date(2027, 2, 3, 9, 30, 0, 0, time.UTC)) {
		t.Fatalf("clock does not run: %v", got)
	}
	if _, err := shiftedClock("demain", time.Now); err == nil {
		t.Fatal("a malformed --now was accepted")
	}
}
