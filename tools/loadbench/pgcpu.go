package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// backendCPU samples the CPU time of the PostgreSQL backends serving one
// database, found by their process titles ("postgres: user db host state"),
// every 50 ms while a round runs. A backend seen at the start counts from
// its first sample; one born during the round counts from zero. Backends
// that live less than a sample apart are missed — the daemon's pool opens
// and closes some under 16 clients — so the figure is a lower bound.
type backendCPU struct {
	title string
	stop  chan struct{}
	done  sync.WaitGroup
	mu    sync.Mutex
	first map[int]time.Duration
	last  map[int]time.Duration
}

func sampleBackends(database string) *backendCPU {
	b := &backendCPU{title: " " + database + " ", stop: make(chan struct{}), first: map[int]time.Duration{}, last: map[int]time.Duration{}}
	for pid, cpu := range b.scan() {
		b.first[pid], b.last[pid] = cpu, cpu
	}
	b.done.Add(1)
	go func() {
		defer b.done.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.record()
			}
		}
	}()
	return b
}

func (b *backendCPU) record() {
	seen := b.scan()
	b.mu.Lock()
	defer b.mu.Unlock()
	for pid, cpu := range seen {
		if _, ok := b.first[pid]; !ok {
			b.first[pid] = 0
		}
		b.last[pid] = cpu
	}
}

// total stops the sampling and returns the CPU the backends used.
func (b *backendCPU) total() time.Duration {
	close(b.stop)
	b.done.Wait()
	b.record()
	var sum time.Duration
	for pid, last := range b.last {
		sum += last - b.first[pid]
	}
	return sum
}

// scan lists the backends of the database with their CPU time.
func (b *backendCPU) scan() map[int]time.Duration {
	out := map[int]time.Duration{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.HasPrefix(cmd, []byte("postgres: ")) || !strings.Contains(string(cmd), b.title) {
			continue
		}
		out[pid] = cpuTime(pid)
	}
	return out
}
