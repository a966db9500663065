// Package deploy holds the files of a real installation (README "Running
// Primeur for real") and the tests that run them: the binary behind nginx
// with deploy/nginx.conf, the Dockerfile checked against the Makefile.
package deploy

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// site is the name deploy/nginx.conf serves, and the certificate's.
const site = "primeur.example.fr"

// TestBehindNginx starts the built binary as deploy/primeur.service
// configures it (its Environment lines; the address and the data
// directory the test's own) behind Debian's nginx running deploy/nginx.conf
// with only its ports and certificate paths changed, and runs through it,
// over TLS, the redirect from http, a login and pages (browse): each
// security header once (Primeur's, none added by nginx), the answer
// compressed once (by Primeur), HSTS and the __Host- cookie since nginx
// says https, nginx's request id answered and logged, and Primeur's access
// log naming the client nginx forwards.
func TestBehindNginx(t *testing.T) {
	nginx := nginxBinary()
	if nginx == "" {
		t.Skip("nginx is not installed (Debian's package nginx, which .ci/run installs)")
	}
	p := startService(t)
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	httpPort, httpsPort := freePort(t), freePort(t)
	conf := siteConfig(t, "nginx.conf", map[string]string{
		"server 127.0.0.1:8080;":     "server " + p.addr + ";",
		"listen 80;":                 "listen " + httpPort + ";",
		"listen [::]:80;":            "listen [::]:" + httpPort + ";",
		"listen 443 ssl http2;":      "listen " + httpsPort + " ssl http2;",
		"listen [::]:443 ssl http2;": "listen [::]:" + httpsPort + " ssl http2;",
		"/etc/letsencrypt/live/" + site + "/fullchain.pem": cert,
		"/etc/letsencrypt/live/" + site + "/privkey.pem":   key,
	})
	startNginx(t, nginx, dir, conf)
	// The client, from 127.0.0.9: nginx forwards that address.
	c := newClient(t, cert, "127.0.0.9", map[string]string{"80": httpPort, "443": httpsPort})
	browse(t, c, p, "127.0.0.9", nginxRequestID)
}

// service is the daemon started as deploy/primeur.service configures it,
// with one shop's account.
type service struct {
	addr            string // where it listens
	logs            primeurLog
	email, password string
}

// startService builds (or takes) the binary and starts it with the unit's
// settings, but the address and the data directory the test's own, its
// log in JSON (read back); one shop's account created by the command line.
func startService(t *testing.T) *service {
	t.Helper()
	if testing.Short() {
		t.Skip("real processes (skipped with -short)")
	}
	bin := primeurBinary(t)
	env := unitEnvironment(t, "primeur.service")
	if env["PRIMEUR_TRUSTED_PROXIES"] == "" || !strings.HasPrefix(env["PRIMEUR_BASE_URL"], "https://") {
		t.Fatalf("primeur.service: trusted proxies and an https base URL expected: %v", env)
	}
	p := &service{addr: freeAddr(t), email: "epicerie@example.fr", password: "motdepasse1"}
	env["PRIMEUR_ADDR"] = p.addr
	env["PRIMEUR_DATA_DIR"] = filepath.Join(t.TempDir(), "data")
	env["PRIMEUR_LOG_FORMAT"] = "json"
	command(t, bin, env, "", "migrate")
	command(t, bin, env, p.password+"\n", "user", "create", "--email", p.email, "--name", "Épicerie du Lac", "--type", "distributor")
	p.logs = startPrimeur(t, bin, env)
	return p
}

// browse runs a visit through the proxy c reaches: http redirected to
// https, a login, the API, a page and a compressed answer, each with
// Primeur's headers once and the proxy's request id (requestID), /metrics
// not forwarded, and the login in Primeur's access log as coming from
// client.
func browse(t *testing.T, c *client, p *service, client string, requestID *regexp.Regexp) {
	t.Helper()
	res := c.get(t, "http://"+site+"/dis/needs?x=1")
	loc, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode/100 != 3 || err != nil || loc.Scheme != "https" || loc.Hostname() != site || loc.RequestURI() != "/dis/needs?x=1" {
		t.Fatalf("http: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}

	body := fmt.Sprintf(`{"email":%q,"password":%q}`, p.email, p.password)
	res = c.do(t, "POST", "https://"+site+"/auth/login", body, "identity")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("login: %d %s", res.StatusCode, res.body)
	}
	checkHeaders(t, "login", res, requestID)
	var cookie *http.Cookie
	for _, ck := range res.Cookies() {
		cookie = ck
	}
	if cookie == nil || cookie.Name != "__Host-primeur_session" || !cookie.Secure || !cookie.HttpOnly {
		t.Fatalf("login cookie: %v", res.Header.Values("Set-Cookie"))
	}
	var login struct {
		User struct {
			ID    string `json:"_id"`
			Email string `json:"email"`
		} `json:"user"`
	}
	if err := json.Unmarshal(res.body, &login); err != nil || login.User.Email != p.email {
		t.Fatalf("login answer: %v %s", err, res.body)
	}
	loginID := res.Header.Get("X-Request-Id")

	res = c.get(t, "https://"+site+"/api/user")
	if res.StatusCode != http.StatusOK || !strings.Contains(string(res.body), p.email) {
		t.Fatalf("GET /api/user: %d %s", res.StatusCode, res.body)
	}
	checkHeaders(t, "/api/user", res, requestID)

	res = c.get(t, "https://"+site+"/dis/needs")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	checkHeaders(t, "page", res, requestID)

	// Primeur compressed what is worth it, once: the proxy does not.
	res = c.do(t, "GET", "https://"+site+"/openapi.json", "", "br, gzip")
	if res.StatusCode != http.StatusOK || len(res.Header.Values("Content-Encoding")) != 1 {
		t.Fatalf("openapi.json: %d, Content-Encoding %q", res.StatusCode, res.Header.Values("Content-Encoding"))
	}
	checkHeaders(t, "openapi.json", res, requestID)

	if res = c.get(t, "https://"+site+"/metrics"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("/metrics through the proxy: %d", res.StatusCode)
	}

	// Primeur's access log: the login as the proxy forwarded it.
	rec := p.logs.request(t, loginID)
	if rec["client"] != client || rec["user"] != login.User.ID || rec["route"] != "POST /auth/login" || rec["status"] != float64(200) {
		t.Fatalf("access log of the login: %v", rec)
	}
}

// answer is a response read whole.
type answer struct {
	*http.Response
	body []byte
}

// securityHeaders are the headers Primeur sets on every answer: each must
// come once, Primeur's, nginx adding none.
var securityHeaders = []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy",
	"X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy", "Cache-Control",
	"Strict-Transport-Security", "X-Request-Id"}

// nginxRequestID is what nginx's $request_id looks like.
var nginxRequestID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func checkHeaders(t *testing.T, what string, res *answer, requestID *regexp.Regexp) {
	t.Helper()
	for _, h := range securityHeaders {
		if n := len(res.Header.Values(h)); n != 1 {
			t.Errorf("%s: %s %d times: %q", what, h, n, res.Header.Values(h))
		}
	}
	for _, h := range []string{"Content-Encoding", "Vary", "Server"} {
		if n := len(res.Header.Values(h)); n > 1 {
			t.Errorf("%s: %s %d times: %q", what, h, n, res.Header.Values(h))
		}
	}
	if id := res.Header.Get("X-Request-Id"); !requestID.MatchString(id) {
		t.Errorf("%s: X-Request-Id %q is not the proxy's id", what, id)
	}
}

// client speaks to nginx as a browser at site would, from a chosen
// loopback address: every connection goes to 127.0.0.1 on the port the
// test gave the URL's.
type client struct {
	http *http.Client
}

func newClient(t *testing.T, certFile, from string, ports map[string]string) *client {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(certPEM)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	jar, _ := cookiejar.New(nil)
	return &client{http: &http.Client{
		Jar:     jar,
		Timeout: time.Minute,
		Transport: &http.Transport{
			TLSClientConfig:    &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
			ForceAttemptHTTP2:  true,
			DisableCompression: true, // Accept-Encoding is the test's own
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				_, port, _ := net.SplitHostPort(addr)
				return dialer.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", ports[port]))
			},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (c *client) get(t *testing.T, url string) *answer { return c.do(t, "GET", url, "", "identity") }

// do sends a request accepting the codings encoding lists (identity: the
// body as it is).
func (c *client) do(t *testing.T, method, url, body, encoding string) *answer {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept-Encoding", encoding)
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &answer{Response: res, body: data}
}

// siteConfig is a file of deploy/ with each of its texts old replaced by
// new: only ports and paths. A text missing from the file fails the test:
// the file changed, and the test must follow.
func siteConfig(t *testing.T, file string, replace map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	conf := string(data)
	for old, new := range replace {
		if !strings.Contains(conf, old) {
			t.Fatalf("deploy/%s no longer holds %q: update its test", file, old)
		}
		conf = strings.ReplaceAll(conf, old, new)
	}
	return conf
}

// mainConfig wraps the site as Debian's /etc/nginx/nginx.conf includes
// sites-enabled/*, with gzip on as Debian's has it; everything nginx
// writes goes under dir (%[1]s).
const mainConfig = `worker_processes 1;
error_log %[1]s/error.log warn;
events { worker_connections 256; }
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	access_log off;
	gzip on;
	client_body_temp_path %[1]s/client_body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	include %[1]s/sites-enabled/primeur;
}
`

// startNginx runs nginx with the site, stopped at the end of the test.
func startNginx(t *testing.T, bin, dir, site string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "sites-enabled"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sites-enabled", "primeur"), []byte(site), 0o600); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, mainConfig, dir), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"),
		"-g", fmt.Sprintf("daemon off; master_process off; pid %s;", filepath.Join(dir, "nginx.pid")))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start nginx: %v", err)
	}
	exited := stopAtCleanup(t, cmd)
	waitListening(t, "nginx", dir, exited)
}

// waitListening waits until nginx listens on every port of its site,
// failing with its error log when it exits first.
func waitListening(t *testing.T, what, dir string, exited <-chan struct{}) {
	t.Helper()
	site, _ := os.ReadFile(filepath.Join(dir, "sites-enabled", "primeur"))
	for _, l := range regexp.MustCompile(`(?m)^\s*listen (\S+?)[ ;]`).FindAllStringSubmatch(string(site), -1) {
		addr := l[1]
		if !strings.Contains(addr, ":") {
			addr = "127.0.0.1:" + addr
		}
		waitPort(t, what, addr, exited, filepath.Join(dir, "error.log"))
	}
}

// waitPort waits until something listens on addr, failing with the log at
// logPath when the process exits first.
func waitPort(t *testing.T, what, addr string, exited <-chan struct{}, logPath string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			t.Fatalf("%s exited: %s", what, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %s", what, addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopAtCleanup stops cmd with SIGTERM at the end of the test (SIGKILL
// after 20 s); the channel closes when it has exited.
func stopAtCleanup(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	return exited
}

// primeurLog is the JSON log the daemon writes, in a file.
type primeurLog struct{ path string }

// request waits for the access log record of the request whose
// X-Request-Id is id (written once the answer is, which the client may
// read first).
func (l primeurLog) request(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		data, err := os.ReadFile(l.path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			var rec map[string]any
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("a log line is not JSON: %q", sc.Text())
			}
			if rec["msg"] == "request" && rec["request_id"] == id {
				return rec
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no access log record of %s in:\n%s", id, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startPrimeur runs primeur serve with env, its log in a file, stopped at
// the end of the test; it returns once the daemon listens.
func startPrimeur(t *testing.T, bin string, env map[string]string) primeurLog {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "primeur.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logFile.Close() })
	cmd := exec.Command(bin, "serve")
	cmd.Env = environ(env)
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopAtCleanup(t, cmd)
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "à l'écoute sur http://") {
				listening <- true
				_, _ = io.Copy(io.Discard, out)
				return
			}
		}
		listening <- false
	}()
	select {
	case ok := <-listening:
		if !ok {
			log, _ := os.ReadFile(logPath)
			t.Fatalf("primeur serve stopped: %s", log)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("primeur serve does not listen")
	}
	return primeurLog{path: logPath}
}

// command runs one primeur command with env and stdin, failing the test
// when it fails.
func command(t *testing.T, bin string, env map[string]string, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = environ(env)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("primeur %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// environ is the process's environment without its PRIMEUR_* variables
// (a test's own would be refused), plus env.
func environ(env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRIMEUR_") {
			out = append(out, kv)
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// unitEnvironment reads the Environment= lines of a systemd unit of
// deploy/.
func unitEnvironment(t *testing.T, unit string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		if kv, ok := strings.CutPrefix(strings.TrimSpace(line), "Environment="); ok {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	return env
}

// primeurBinary is $PRIMEUR_BIN (make's bin/primeur, the interface
// embedded), or the binary built as make build does, into the test's
// directory.
func primeurBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("PRIMEUR_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "primeur")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/primeur")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/primeur: %v\n%s", err, out)
	}
	return bin
}

// nginxBinary is Debian's nginx, or "" (daemontest does the same).
func nginxBinary() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// freePort is a TCP port free on every address a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	return "127.0.0.1:" + freePort(t)
}

// selfSigned writes a certificate for site and its key, as a certificate
// authority would have issued them, and returns their paths.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: site},
		DNSNames:              []string{site},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "fullchain.pem"), filepath.Join(dir, "privkey.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}
