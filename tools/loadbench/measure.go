package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	corejobs "primeur/core/jobs"
	"primeur/core/store"
)

// measurer starts the daemon on a platform and loads it.
type measurer struct {
	bin      string
	hey      string
	clients  int
	rounds   int
	duration time.Duration
	warmup   time.Duration
	now      string
	// national: a run with the national platform, whose sizes all measure
	// the dense département too (rhône), side by side (platforms).
	national bool
}

// dbSampler starts sampling the CPU of the PostgreSQL backends of d's
// database, or returns nil (SQLite, the limit server).
func dbSampler(d *daemon) *backendCPU {
	if d.database == "" {
		return nil
	}
	return sampleBackends(d.database)
}

// dbCPU is the sampled backends' CPU per operation, in ms.
func dbCPU(b *backendCPU, n int) float64 {
	if b == nil || n == 0 {
		return 0
	}
	return float64(b.total().Microseconds()) / 1000 / float64(n)
}

// measurement is one request measured in rounds of a fixed duration, each
// round with the same number of concurrent clients.
type measurement struct {
	Name      string  `json:"name"`
	Request   string  `json:"request"`
	Rounds    []round `json:"rounds"`
	RespBytes int     `json:"respBytes"`
	// Medians over the rounds.
	P50   float64 `json:"p50ms"`
	P99   float64 `json:"p99ms"`
	RPS   float64 `json:"rps"`
	CPU   float64 `json:"cpuMsPerOp"`
	DBCPU float64 `json:"postgresCpuMsPerOp,omitempty"`
	Load1 float64 `json:"load1"`
	// LimitOf names the measurement this one is the limit of (limits.go).
	LimitOf string `json:"limitOf,omitempty"`
}

// round is one measured round: latencies in ms, operations per second,
// the daemon's CPU time per operation (user + system, from /proc), the
// load generator's, and the machine's 1-minute load average at its end.
type round struct {
	N      int     `json:"n"`
	Errors int     `json:"errors"`
	P50    float64 `json:"p50ms"`
	P90    float64 `json:"p90ms"`
	P99    float64 `json:"p99ms"`
	Max    float64 `json:"maxms"`
	RPS    float64 `json:"rps"`
	CPU    float64 `json:"cpuMsPerOp"`
	DBCPU  float64 `json:"postgresCpuMsPerOp,omitempty"`
	GenCPU float64 `json:"generatorCpuMsPerOp"`
	Load1  float64 `json:"load1"`
}

// jobRun is a job the daemon ran at start, as its log reports it.
type jobRun struct {
	Name     string `json:"name"`
	Report   string `json:"report"`
	Duration string `json:"duration"`
}

// daemon is a running bin/primeur serve.
type daemon struct {
	cmd  *exec.Cmd
	base string
	log  string
	done chan error
	// database is the PostgreSQL database it serves, whose backends'
	// CPU is sampled; empty on SQLite.
	database string
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// start runs the daemon on p and waits until it answers and its jobs at
// start are done.
func (m *measurer) start(ctx context.Context, p *platform, dir string) (*daemon, []jobRun, error) {
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	args := []string{"serve", "--addr", addr, "--data-dir", filepath.Join(dir, "data"), "--now", m.now, "--log-level", "info"}
	if p.DatabaseURL != "" {
		args = append(args, "--database-url", p.DatabaseURL)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	logPath := filepath.Join(dir, "daemon.log")
	lf, err := os.Create(logPath)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(m.bin, args...)
	cmd.Stdout, cmd.Stderr = lf, lf
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRIMEUR_") { // the flags say everything
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return nil, nil, err
	}
	d := &daemon{cmd: cmd, base: "http://" + addr, log: logPath, done: make(chan error, 1)}
	if p.DatabaseURL != "" {
		d.database = size{p.Regions, p.National}.database()
	}
	go func() { d.done <- cmd.Wait(); lf.Close() }()
	// The jobs at start would catch up with anything the seed left due
	// (it leaves nothing: the credit notes, sends and reminders are
	// written by the seed): the measurements wait for them, or they would
	// share the cores and the write lock with them — up to jobsWait. Past
	// it the measurements start beside the jobs still running, which the
	// jobs' table names; a job that did something is logged.
	deadline := time.Now().Add(5 * time.Minute)
	jobsDeadline := time.Now().Add(jobsWait)
	var jobs []jobRun
	for {
		if time.Now().After(deadline) {
			d.stop()
			return nil, nil, errors.New("the daemon did not get ready in 5 minutes; see " + logPath)
		}
		select {
		case err := <-d.done:
			return nil, nil, fmt.Errorf("the daemon stopped (%v); see %s", err, logPath)
		case <-ctx.Done():
			d.stop()
			return nil, nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		jobs = jobsDone(logPath)
		running := stillRunning(jobs)
		if len(jobs) < 3 || (len(running) > 0 && time.Now().Before(jobsDeadline)) {
			continue
		}
		if resp, err := http.Get(d.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				for _, name := range running {
					log.Printf("%s %d: job %s still running at the measurements", p.Engine, p.Regions, name)
					jobs = append(jobs, jobRun{Name: name, Report: "still running when the measurements started"})
				}
				for _, j := range jobs {
					if workDone.MatchString(j.Report) {
						log.Printf("%s %d: the job %s found work left by the seed: %s", p.Engine, p.Regions, j.Name, j.Report)
					}
				}
				return d, jobs, nil
			}
		}
	}
}

// workDone matches a job's report that counts something done.
var workDone = regexp.MustCompile(` : [1-9]`)

// jobsWait bounds the wait for the jobs at start.
const jobsWait = 4 * time.Minute

// stillRunning lists the jobs the daemon runs at start that runs does not
// name yet (by name: a quick job's next scheduled run may come first).
func stillRunning(runs []jobRun) []string {
	done := map[string]bool{}
	for _, r := range runs {
		done[r.Name] = true
	}
	var out []string
	for _, j := range corejobs.All {
		if !done[j.Name] {
			out = append(out, j.Name)
		}
	}
	return out
}

// jobsDone reads the jobs reported done (or failed) in the daemon's log.
func jobsDone(path string) []jobRun {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []jobRun
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, `msg="job done"`) && !strings.Contains(line, `msg="job failed"`) {
			continue
		}
		out = append(out, jobRun{Name: field(line, "job"), Report: field(line, "report"), Duration: field(line, "duration")})
	}
	return out
}

// field reads key=value or key="value" from a slog text line.
func field(line, key string) string {
	i := strings.Index(line, " "+key+"=")
	if i < 0 {
		return ""
	}
	rest := line[i+len(key)+2:]
	if strings.HasPrefix(rest, `"`) {
		if v, err := strconv.QuotedPrefix(rest); err == nil {
			s, _ := strconv.Unquote(v)
			return s
		}
	}
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		return rest[:j]
	}
	return rest
}

func (d *daemon) pid() int { return d.cmd.Process.Pid }

// stop asks the daemon to stop (SIGTERM), kills it after 30 s, and says
// on stderr when it did not exit cleanly: the figures of a run whose daemon
// failed are suspect.
func (d *daemon) stop() {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	var err error
	select {
	case err = <-d.done:
	case <-time.After(30 * time.Second):
		_ = d.cmd.Process.Kill()
		err = <-d.done
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadbench: the daemon did not stop cleanly: %v\n", err)
	}
}

// errorLines are the daemon log's errors.
func (d *daemon) errorLines() []string {
	b, _ := os.ReadFile(d.log)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "level=ERROR") && len(out) < 20 {
			out = append(out, l)
		}
	}
	return out
}

// cpuTime is a process's CPU time (user + system) from /proc, at the
// kernel's 100 Hz tick.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// peakRSS is a process's peak resident memory in KB.
func peakRSS(pid int) int64 { return procStatus(pid, "VmHWM:") }

// rss is a process's resident memory now, in KB.
func rss(pid int) int64 { return procStatus(pid, "VmRSS:") }

// restWait is how long the daemon rests, after its start and after the
// loads, before its resident memory at rest is read: the daemon gives the
// heap it no longer uses back to the system once quiet for two seconds
// (daemon/rest.go).
const restWait = 5 * time.Second

// procStatus is the value in KB of a line of a process's
// /proc/<pid>/status (VmHWM:, VmRSS:).
func procStatus(pid int, key string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
			n, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return n
		}
	}
	return 0
}

func load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}

// login opens a session and returns its cookie header. A login the daemon
// turns away for now (503: its password checks are bounded, and a machine
// still busy with the last measure may keep one waiting too long) is tried
// again, a few times, after a pause.
func login(base, email string) (string, error) {
	for attempt := 1; ; attempt++ {
		cookie, err := loginOnce(base, email)
		if !errors.Is(err, errLater) || attempt == 5 {
			return cookie, err
		}
		log.Printf("login %s: %v; again in %d s", email, err, attempt)
		time.Sleep(time.Duration(attempt) * time.Second)
	}
}

// errLater is a login the daemon turned away for now.
var errLater = errors.New("503")

func loginOnce(base, email string) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": Password})
	resp, err := http.Post(base+"/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return "", fmt.Errorf("login %s: %w", email, errLater)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return "", fmt.Errorf("login %s: %s %s", email, resp.Status, b)
	}
	for _, c := range resp.Cookies() {
		if c.Value != "" {
			return c.Name + "=" + c.Value, nil
		}
	}
	return "", fmt.Errorf("login %s: no cookie", email)
}

// The map's areas: Haute-Savoie's bounding box at the zoom the map shows
// it (zoom 1: 2.3° × 1.3° on a 800 × 440 map), and what the map shows
// around Lyon and the Alps at its smallest zoom on a large screen.
const (
	hauteSavoie = "south=45.68&west=5.8&north=46.41&east=7.05&zoom=1"
	alpsRhone   = "south=44.2&west=3.6&north=46.8&east=8.2&zoom=0.5"
	// Rhône's bounding box (Lyon and its département) at zoom 1.
	rhone = "south=45.45&west=4.24&north=46.31&east=5.16&zoom=1"
)

// platforms measures seeded platforms side by side: a daemon on each,
// then every request on each in turn, round by round, so that they share
// the machine's load alike (the national comparison); one platform is
// the plain case. The user loads and the maps are measured on every
// size, the other requests with full.
func (m *measurer) platforms(ctx context.Context, ps []*platform, dirs []string, full bool) ([]platformRun, error) {
	runs := make([]platformRun, len(ps))
	ds := make([]*daemon, len(ps))
	cookies := make([]map[string]string, len(ps))
	defer func() {
		for _, d := range ds {
			if d != nil {
				d.stop()
			}
		}
	}()
	for i, p := range ps {
		runs[i].Platform = p
		d, jobs, err := m.start(ctx, p, dirs[i])
		if err != nil {
			return runs, err
		}
		ds[i], runs[i].Jobs = d, jobs
		cookies[i] = map[string]string{}
		for _, u := range p.Users {
			if cookies[i][u.Role], err = login(d.base, u.Email); err != nil {
				return runs, err
			}
		}
	}
	select {
	case <-ctx.Done():
	case <-time.After(restWait):
	}
	for i, d := range ds {
		runs[i].IdleRSS = rss(d.pid())
	}
	type req struct{ name, role, path string }
	reqs := []req{
		{"GET /api/user — shop", "shop", "/api/user"},
		{"GET /api/user — largest shop", "largest shop", "/api/user"},
		{"GET /api/user — producer", "producer", "/api/user"},
		// The map by viewport (issue 20), on every size: the producer's
		// dashboard on one département, and on the wider area of the
		// smallest zoom.
		{"GET /api/map — Haute-Savoie, zoom 1", "producer", "/api/map?" + hauteSavoie},
		{"GET /api/map — Alps and Rhône, zoom 0.5", "producer", "/api/map?" + alpsRhone},
	}
	if m.national {
		// A département as dense as France's accounts make it: Lyon's.
		reqs = append(reqs, req{"GET /api/map — Rhône, zoom 1", "producer", "/api/map?" + rhone})
	}
	if full {
		reqs = append(reqs,
			req{"GET /api/supply — shop, 8 days", "shop", "/api/supply?start=" + ps[0].Monday + "&days=8"},
			req{"GET /api/rewards — shop standing", "shop", "/api/rewards"},
			// Each screen's own read since the user load was split (issue
			// 42): the largest shop's planner and deliveries, the
			// dashboard's chart, the catalogue every screen revalidates.
			req{"GET /api/needs — largest shop, 12 months back", "largest shop", "/api/needs?from=" + monthBefore(ps[0].Monday, monthsBack)},
			req{"GET /api/orders — largest shop, 12 months back", "largest shop", "/api/orders"},
			req{"GET /api/stats/purchases — largest shop", "largest shop", "/api/stats/purchases"},
			req{"GET /api/catalogue", "shop", "/api/catalogue"},
		)
	}
	what := func(i int) string { return fmt.Sprintf("%s %s", ps[i].Engine, size{ps[i].Regions, ps[i].National}) }
	for _, r := range reqs {
		targets := make([]target, len(ps))
		for i, d := range ds {
			log.Printf("%s: %s", what(i), r.name)
			targets[i] = target{d: d, url: d.base + r.path, cookie: cookies[i][r.role]}
		}
		mss, err := m.load(ctx, r.name, targets)
		if err != nil {
			return runs, err
		}
		for i := range runs {
			runs[i].Measurements = append(runs[i].Measurements, mss[i])
		}
	}
	if full && len(ps[0].Trips) > 0 {
		log.Printf("%s: proposal round-trips", what(0))
		trips := make([][]trip, len(ps))
		for i, p := range ps {
			trips[i] = p.Trips
		}
		mss, err := m.roundTrips(ctx, ds, trips)
		if err != nil {
			return runs, err
		}
		for i := range runs {
			runs[i].Measurements = append(runs[i].Measurements, mss[i])
		}
		if !m.national {
			for i, d := range ds {
				log.Printf("%s: the round-trip's limit", what(i))
				lim, err := m.roundTripLimit(ctx, d, dirs[i], ps[i].Trips, mss[i])
				if err != nil {
					return runs, err
				}
				runs[i].Measurements = append(runs[i].Measurements, lim)
			}
		}
	}
	select {
	case <-ctx.Done():
	case <-time.After(restWait):
	}
	for i, d := range ds {
		runs[i].PeakRSS = peakRSS(d.pid())
		runs[i].RestRSS = rss(d.pid())
		runs[i].Errors = d.errorLines()
	}
	return runs, nil
}

// target is a request to load on one daemon, with its session.
type target struct {
	d      *daemon
	url    string
	cookie string
}

// heyCommand is the load generator's command line.
func (m *measurer) heyCommand(args ...string) *exec.Cmd {
	if m.hey != "" {
		return exec.Command(m.hey, args...)
	}
	return exec.Command("go", append([]string{"tool", "hey"}, args...)...)
}

// load loads each target with m.clients clients: a warm-up on each, then
// m.rounds rounds, each round on every target in turn. It returns a
// measurement per target.
func (m *measurer) load(ctx context.Context, name string, ts []target) ([]measurement, error) {
	mss := make([]measurement, len(ts))
	args := func(t target, dur time.Duration) []string {
		return []string{"-c", strconv.Itoa(m.clients), "-z", dur.String(), "-H", "Cookie: " + t.cookie, "-o", "csv", t.url}
	}
	for i, t := range ts {
		mss[i] = measurement{Name: name, Request: strings.TrimPrefix(t.url, t.d.base)}
		size, err := fetchSize(t.url, t.cookie)
		if err != nil {
			return mss, err
		}
		mss[i].RespBytes = size
		if m.warmup > 0 {
			if out, err := m.heyCommand(args(t, m.warmup)...).CombinedOutput(); err != nil {
				return mss, fmt.Errorf("hey: %v: %s", err, out)
			}
		}
	}
	for range m.rounds {
		for i, t := range ts {
			if err := ctx.Err(); err != nil {
				return mss, err
			}
			cmd := m.heyCommand(args(t, m.duration)...)
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = os.Stderr
			cpu := cpuTime(t.d.pid())
			sampler := dbSampler(t.d)
			if err := cmd.Run(); err != nil {
				return mss, fmt.Errorf("hey: %w", err)
			}
			used := cpuTime(t.d.pid()) - cpu
			r, err := parseHey(out.Bytes())
			if err != nil {
				return mss, err
			}
			r.DBCPU = dbCPU(sampler, r.N)
			if r.N > 0 {
				r.CPU = float64(used.Microseconds()) / 1000 / float64(r.N)
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					gen := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
					r.GenCPU = float64(gen.Microseconds()) / 1000 / float64(r.N)
				}
			}
			r.Load1 = load1()
			mss[i].Rounds = append(mss[i].Rounds, r)
		}
	}
	for i := range mss {
		mss[i].summarise()
	}
	return mss, nil
}

func fetchSize(url, cookie string) (int, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s %s", url, resp.Status, b)
	}
	return len(b), nil
}

// parseHey reads hey's CSV output (one line per request: response time
// in seconds, …, status code, offset from the start in seconds).
func parseHey(out []byte) (round, error) {
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		return round{}, fmt.Errorf("hey output: %w", err)
	}
	if len(rows) < 2 || rows[0][0] != "response-time" {
		return round{}, fmt.Errorf("hey output: unexpected %q", firstLine(out))
	}
	var lats []float64
	var errs int
	end := 0.0
	for _, row := range rows[1:] {
		lat, _ := strconv.ParseFloat(row[0], 64)
		code, _ := strconv.Atoi(row[6])
		offset, _ := strconv.ParseFloat(row[7], 64)
		if code != http.StatusOK {
			errs++
		}
		lats = append(lats, lat*1000)
		end = max(end, offset+lat)
	}
	return summary(lats, errs, end), nil
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

func summary(lats []float64, errs int, seconds float64) round {
	sort.Float64s(lats)
	r := round{N: len(lats), Errors: errs}
	if len(lats) == 0 {
		return r
	}
	q := func(p float64) float64 { return lats[min(len(lats)-1, int(math.Ceil(p*float64(len(lats))))-1)] }
	r.P50, r.P90, r.P99, r.Max = q(0.50), q(0.90), q(0.99), lats[len(lats)-1]
	if seconds > 0 {
		r.RPS = float64(len(lats)) / seconds
	}
	return r
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (ms *measurement) summarise() {
	pick := func(f func(round) float64) float64 {
		var xs []float64
		for _, r := range ms.Rounds {
			xs = append(xs, f(r))
		}
		return median(xs)
	}
	ms.P50 = pick(func(r round) float64 { return r.P50 })
	ms.P99 = pick(func(r round) float64 { return r.P99 })
	ms.RPS = pick(func(r round) float64 { return r.RPS })
	ms.CPU = pick(func(r round) float64 { return r.CPU })
	ms.DBCPU = pick(func(r round) float64 { return r.DBCPU })
	ms.Load1 = pick(func(r round) float64 { return r.Load1 })
}

// roundTrips measures the proposal round-trip on each daemon (with its
// platform's trips): a producer proposes a correction of its commitment
// on a need of next month, the shop accepts it (the commitment changes,
// the order's deliveries are re-planned); the pair is one operation. Each
// client works on its own need and producer. A warm-up on each daemon,
// then each round on every daemon in turn.
func (m *measurer) roundTrips(ctx context.Context, ds []*daemon, trips [][]trip) ([]measurement, error) {
	mss := make([]measurement, len(ds))
	phases := make([]func(time.Duration) round, len(ds))
	for i, d := range ds {
		mss[i] = measurement{Name: "proposal round-trip — producer proposes, shop accepts",
			Request: "PUT /api/proposals/{need}/{producer} + PUT /api/proposalreview/{need}/{producer}"}
		var err error
		if phases[i], err = m.roundTripPhase(ctx, d, trips[i]); err != nil {
			return mss, err
		}
		if m.warmup > 0 {
			phases[i](m.warmup)
		}
	}
	for range m.rounds {
		for i := range ds {
			mss[i].Rounds = append(mss[i].Rounds, phases[i](m.duration))
		}
	}
	for i := range mss {
		mss[i].summarise()
	}
	return mss, nil
}

// roundTripPhase logs the round-trips' clients in on d and brings each
// need to its first quantity; it returns the phase that runs the pairs
// for a duration and measures them.
func (m *measurer) roundTripPhase(ctx context.Context, d *daemon, trips []trip) (func(time.Duration) round, error) {
	type worker struct {
		t          trip
		farm, shop string
		next       int
	}
	workers := make([]*worker, 0, m.clients)
	for i := 0; i < m.clients && i < len(trips); i++ {
		t := trips[i]
		farm, err := login(d.base, t.ProducerEmail)
		if err != nil {
			return nil, err
		}
		shop, err := login(d.base, t.ShopEmail)
		if err != nil {
			return nil, err
		}
		workers = append(workers, &worker{t: t, farm: farm, shop: shop})
	}
	if len(workers) < m.clients {
		log.Printf("round-trips: %d clients (one per producer available)", len(workers))
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * m.clients}}
	put := func(url, cookie string, body any) error {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPut, d.base+url, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cookie", cookie)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("PUT %s: %s %s", url, resp.Status, out)
		}
		return nil
	}
	pair := func(w *worker) error {
		path := "/" + w.t.NeedID + "/" + w.t.ProducerID
		q := w.t.Quantities[w.next%2]
		w.next++
		if err := put("/api/proposals"+path, w.farm, map[string]float64{"quantity": q, "price": w.t.Price}); err != nil {
			return err
		}
		return put("/api/proposalreview"+path, w.shop, map[string]bool{"accepted": true})
	}
	// Each worker alternates between two quantities; the first pair of
	// each brings its need to the first one.
	for _, w := range workers {
		if err := pair(w); err != nil {
			return nil, err
		}
	}
	return func(dur time.Duration) round {
		var (
			mu    sync.Mutex
			lats  []float64
			errs  int
			first error
			wg    sync.WaitGroup
		)
		start := time.Now()
		stop := start.Add(dur)
		cpu := cpuTime(d.pid())
		sampler := dbSampler(d)
		for _, w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(stop) && ctx.Err() == nil {
					t := time.Now()
					err := pair(w)
					lat := float64(time.Since(t).Microseconds()) / 1000
					mu.Lock()
					lats = append(lats, lat)
					if err != nil {
						errs++
						if first == nil {
							first = err
						}
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		used := cpuTime(d.pid()) - cpu
		r := summary(lats, errs, time.Since(start).Seconds())
		r.DBCPU = dbCPU(sampler, r.N)
		if r.N > 0 {
			r.CPU = float64(used.Microseconds()) / 1000 / float64(r.N)
		}
		r.Load1 = load1()
		if first != nil {
			log.Printf("round-trips: %d errors, first: %v", errs, first)
		}
		return r
	}, nil
}

// machine describes where the figures were measured.
type machine struct {
	CPU      string  `json:"cpu"`
	Cores    int     `json:"cores"`
	MemoryGB float64 `json:"memoryGB"`
	Kernel   string  `json:"kernel"`
	Go       string  `json:"go"`
	Node     string  `json:"node"`
	Load     string  `json:"loadAtStart"`
}

func describeMachine() machine {
	m := machine{Cores: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				_, m.CPU, _ = strings.Cut(l, ": ")
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "MemTotal:") {
				kb, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
				m.MemoryGB = math.Round(kb/1024/1024*10) / 10
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m.Node = strings.TrimSpace(string(out))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.Load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return m
}

// dropDatabase removes a measured PostgreSQL database.
func dropDatabase(ctx context.Context, admin, url string) error {
	db, err := store.Open(ctx, admin, "")
	if err != nil {
		return err
	}
	defer db.Close()
	name := url[strings.LastIndexByte(url[:strings.IndexByte(url+"?", '?')], '/')+1 : strings.IndexByte(url+"?", '?')]
	_, err = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return err
}

// monthBefore is the month n months before the day's ("2026-11-23" →
// "2025-11-01" for 12), as the UI asks for its lists.
func monthBefore(day string, n int) string {
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		return ""
	}
	return time.Date(t.Year(), t.Month()-time.Month(n), 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
}
