package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// caddyWrapper runs deploy/Caddyfile as it is, but for its upstream:
// global options put the http and https ports where the test wants them,
// keep everything Caddy writes under the test's directory, and have
// Caddy's own local authority issue the site's certificate instead of
// Let's Encrypt (no network in tests).
const caddyWrapper = `{
	admin off
	storage file_system %[1]s/storage
	http_port %[2]s
	https_port %[3]s
	local_certs
	skip_install_trust
}
import %[1]s/Caddyfile
`

// caddyRequestID is what Caddy's {http.request.uuid} looks like.
var caddyRequestID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestBehindCaddy: the same visit as TestBehindNginx, through Debian's
// Caddy running deploy/Caddyfile (its upstream the test's daemon; ports
// and the certificate's issuer set by global options around it): Caddy's
// TLS and redirect, Primeur's headers once, compressed once, Caddy's
// request id, the client Caddy forwards.
func TestBehindCaddy(t *testing.T) {
	bin, err := exec.LookPath("caddy")
	if err != nil {
		t.Skip("caddy is not installed (Debian's package caddy, which .ci/run installs)")
	}
	p := startService(t)
	dir := t.TempDir()
	caddyfile := siteConfig(t, "Caddyfile", map[string]string{"reverse_proxy 127.0.0.1:8080": "reverse_proxy " + p.addr})
	if err := os.WriteFile(filepath.Join(dir, "Caddyfile"), []byte(caddyfile), 0o600); err != nil {
		t.Fatal(err)
	}
	httpPort, httpsPort := freePort(t), freePort(t)
	conf := filepath.Join(dir, "wrapper.caddyfile")
	if err := os.WriteFile(conf, fmt.Appendf(nil, caddyWrapper, dir, httpPort, httpsPort), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", conf, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	logPath := filepath.Join(dir, "caddy.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logFile.Close() })
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := stopAtCleanup(t, cmd)

	// Caddy's local authority, once it has issued the site's certificate.
	root := filepath.Join(dir, "storage", "pki", "authorities", "local", "root.crt")
	cert := filepath.Join(dir, "storage", "certificates", "local", site, site+".crt")
	deadline := time.Now().Add(time.Minute)
	for {
		_, errRoot := os.Stat(root)
		_, errCert := os.Stat(cert)
		if errRoot == nil && errCert == nil {
			break
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			t.Fatalf("caddy exited: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			t.Fatalf("caddy issued no certificate: %s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitPort(t, "caddy", "127.0.0.1:"+httpsPort, exited, logPath)
	waitPort(t, "caddy", "127.0.0.1:"+httpPort, exited, logPath)

	c := newClient(t, root, "127.0.0.9", map[string]string{"80": httpPort, "443": httpsPort})
	browse(t, c, p, "127.0.0.9", caddyRequestID)
}
