package reliability

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// deadline bounds every wait of these tests: far above what any step takes
// on a loaded machine, so that only a real hang fails a test by time.
const deadline = 3 * time.Minute

var (
	binDir   string
	buildErr error
	building sync.Once
	binPath  string
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "primeur-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary builds the primeur binary once per test run, as `make build` does
// (without cgo), and returns its path. The build happens on first use, so
// listing or skipping the tests builds nothing.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real processes (skipped with -short)")
	}
	building.Do(func() {
		binPath = filepath.Join(binDir, "primeur")
		cmd := exec.Command("go", "build", "-trimpath", "-o", binPath, "./cmd/primeur")
		cmd.Dir = ".." // the module root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/primeur: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// base is where a test's processes keep their data: a SQLite file in a data
// directory, or a fresh PostgreSQL schema.
type base struct {
	name string
	url  string    // PostgreSQL URL, empty for SQLite
	dir  string    // the data directory (SQLite file, outbox)
	db   *store.DB // the test's own connection
}

// engines lists the databases to run on: SQLite always, PostgreSQL when
// PRIMEUR_TEST_DATABASE_URL is set.
func engines(t *testing.T) []string {
	if os.Getenv(storetest.EnvURL) == "" {
		return []string{"sqlite"}
	}
	return []string{"sqlite", "postgres"}
}

// newBase makes a database for the processes of a test, migrated, and
// opens it in the test process too, where the test seeds and checks it.
func newBase(t *testing.T, engine string) (base, *store.DB) {
	t.Helper()
	b := base{name: engine, dir: t.TempDir()}
	// The SQLite file starts as a copy of the test process's migrated
	// template, as the PostgreSQL schema of storetest.URL does, instead
	// of being migrated again by each test (issue 35): Migrate below
	// finds nothing to do, as the daemons do at start.
	if engine == "postgres" {
		b.url = storetest.URL(t)
	} else {
		storetest.SQLiteFile(t, filepath.Join(b.dir, "primeur.db"))
	}
	db, err := store.Open(context.Background(), b.url, filepath.Join(b.dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := schema.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	b.db = db
	return b, db
}

// args are the flags giving a process this database and data directory.
func (b base) args() []string {
	return []string{"--data-dir", b.dir, "--database-url", b.url}
}

var apps atomic.Int64

// named is the base with a PostgreSQL application_name of its own, by
// which the test finds the process's sessions on the server (see gone).
func (b base) named() (base, string) {
	if b.url == "" {
		return b, ""
	}
	u, err := url.Parse(b.url)
	if err != nil {
		panic(err)
	}
	app := fmt.Sprintf("primeur-reliability-%d-%d", os.Getpid(), apps.Add(1))
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	b.url = u.String()
	return b, app
}

// proc is a running primeur process whose output the test reads line by
// line: the address it prints on stdout, its logs (text, at debug level) on
// stderr.
type proc struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd

	// app names the process's PostgreSQL sessions; db is the test's
	// connection to that server.
	app string
	db  *store.DB

	mu    sync.Mutex
	lines []string
	grew  chan struct{} // closed and replaced at each new line
	done  chan struct{} // closed once the process has exited
	state *os.ProcessState
}

// start runs the binary with args (and a clean PRIMEUR_ environment).
func start(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, grew: make(chan struct{}), done: make(chan struct{})}
	p.cmd = exec.Command(binary(t), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRIMEUR_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			s := bufio.NewScanner(r)
			s.Buffer(make([]byte, 64<<10), 1<<20)
			for s.Scan() {
				p.add(s.Text())
			}
			_, _ = io.Copy(io.Discard, r) // a line over the buffer: keep draining
		}()
	}
	go func() {
		readers.Wait()
		_ = p.cmd.Wait()
		p.mu.Lock()
		p.state = p.cmd.ProcessState
		p.mu.Unlock()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			p.dump()
		}
	})
	return p
}

func (p *proc) add(line string) {
	p.mu.Lock()
	p.lines = append(p.lines, line)
	close(p.grew)
	p.grew = make(chan struct{})
	p.mu.Unlock()
}

// dump logs the process's output, for a failed test.
func (p *proc) dump() {
	p.mu.Lock()
	defer p.mu.Unlock()
	from := max(0, len(p.lines)-300)
	p.t.Logf("--- %s: last %d lines of output ---\n%s", p.name, len(p.lines)-from, strings.Join(p.lines[from:], "\n"))
}

// waitLine waits for the first line from index `from` on that match says
// is the one, and returns it with its index. It fails the test if the
// process exits first or after the deadline.
func (p *proc) waitLine(what string, from int, match func(line string) bool) (string, int) {
	p.t.Helper()
	timeout := time.After(deadline)
	for i := from; ; {
		p.mu.Lock()
		for ; i < len(p.lines); i++ {
			if match(p.lines[i]) {
				line := p.lines[i]
				p.mu.Unlock()
				return line, i
			}
		}
		grew := p.grew
		p.mu.Unlock()
		select {
		case <-grew:
		case <-p.done:
			p.mu.Lock()
			more := i < len(p.lines)
			p.mu.Unlock()
			if !more {
				p.t.Fatalf("%s exited (%v) before %s", p.name, p.state, what)
			}
		case <-timeout:
			p.t.Fatalf("%s: no %s after %v", p.name, what, deadline)
		}
	}
}

// mark is the index of the next line: waitLine(…, p.mark(), …) sees only
// what the process writes from now on.
func (p *proc) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

// waitMsg waits for a log line with that message (slog's msg=).
func (p *proc) waitMsg(msg string) string {
	p.t.Helper()
	line, _ := p.waitLine(strconv.Quote(msg), 0, func(l string) bool { return hasMsg(l, msg) })
	return line
}

// serving waits for the daemon to listen and returns its base URL.
func (p *proc) serving() string {
	p.t.Helper()
	line, _ := p.waitLine("the address", 0, func(l string) bool { return strings.Contains(l, "à l'écoute sur http://") })
	return line[strings.Index(line, "http://"):]
}

// jobsDone waits until each of the daemon's jobs has finished its first
// run (the catch-up at start) and fails the test if one failed.
func (p *proc) jobsDone(names ...string) {
	p.t.Helper()
	for _, name := range names {
		line, _ := p.waitLine("the end of job "+name, 0, func(l string) bool {
			return (hasMsg(l, "job done") || hasMsg(l, "job failed")) && field(l, "job") == name
		})
		if hasMsg(line, "job failed") {
			p.t.Fatalf("%s: %s", p.name, line)
		}
	}
}

// count is how many lines match.
func (p *proc) count(match func(string) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.lines {
		if match(l) {
			n++
		}
	}
	return n
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatalf("kill %s: %v", p.name, err)
	}
	p.wait()
	if ws, ok := p.state.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		p.t.Fatalf("%s was not killed: it ended first (%v)", p.name, p.state)
	}
}

// gone waits, after a kill, until the dead process's PostgreSQL sessions
// have ended: the server runs to its end a statement the process had sent
// (an autocommit UPDATE commits), and rolls back an open transaction only
// when it notices the closed connection, so the database has its final
// state only then. A session waiting on a lock the test holds ends once
// the test lets it go.
func (p *proc) gone() {
	p.t.Helper()
	if p.app != "" {
		until(p.t, p.name+"'s sessions ending on the server", func() bool {
			return count(p.t, p.db, `SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?`, p.app) == 0
		})
	}
}

// wait waits for the process to exit and returns its exit code (-1 when a
// signal ended it).
func (p *proc) wait() int {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(deadline):
		p.t.Fatalf("%s did not exit within %v", p.name, deadline)
	}
	return p.state.ExitCode()
}

// term sends SIGTERM and returns the exit code.
func (p *proc) term() int {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatalf("SIGTERM %s: %v", p.name, err)
	}
	return p.wait()
}

// serve starts `primeur serve` on the base with a clock set at now, logging
// at debug level, on a free port; extra flags follow.
func serve(t *testing.T, name string, b base, now string, extra ...string) (*proc, string) {
	t.Helper()
	b, app := b.named()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "debug", "--now", now}, b.args()...)
	p := start(t, name, append(args, extra...)...)
	p.app, p.db = app, b.db
	return p, p.serving()
}

// hasMsg reports whether a slog text line carries that message.
func hasMsg(line, msg string) bool {
	return field(line, "msg") == msg
}

// field reads key=value from a slog text line (value quoted or not); empty
// when absent.
func field(line, key string) string {
	i := 0
	for {
		j := strings.Index(line[i:], key+"=")
		if j < 0 {
			return ""
		}
		j += i
		if j == 0 || line[j-1] == ' ' {
			v := line[j+len(key)+1:]
			if strings.HasPrefix(v, `"`) {
				q, err := strconv.QuotedPrefix(v)
				if err != nil {
					return ""
				}
				s, _ := strconv.Unquote(q)
				return s
			}
			if k := strings.IndexByte(v, ' '); k >= 0 {
				v = v[:k]
			}
			return v
		}
		i = j + 1
	}
}

// until polls a condition of the database (an observable state another
// process reaches) until it holds, failing after the deadline.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(stop) {
			t.Fatalf("%s: not after %v", what, deadline)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
