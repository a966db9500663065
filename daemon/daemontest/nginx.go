package daemontest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Nginx is Debian's nginx, started by BehindNginx as a reverse proxy in
// front of a test server, configured as the README's example: it appends
// the address of each client to X-Forwarded-For ($proxy_add_x_forwarded_for,
// after whatever the client sent) and sets X-Forwarded-Proto.
type Nginx struct {
	s *Server
	// URL is where the proxy listens (http://127.0.0.1:port).
	URL string
}

// nginxConfig is the proxy's configuration: everything it writes under
// dir (no root-owned path), one process (master_process off, set on the
// command line), listening on addr and forwarding to upstream.
const nginxConfig = `worker_processes 1;
error_log %[1]s/error.log warn;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path %[1]s/client_body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	server {
		listen %[2]s;
		location / {
			proxy_pass http://%[3]s;
			proxy_http_version 1.1;
			proxy_set_header Host $http_host;
			proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
			proxy_set_header X-Forwarded-Proto $scheme;
		}
	}
}
`

// nginxBinary is the nginx executable, or "" when it is not installed
// (Debian puts it in /usr/sbin, which a user's PATH may lack).
func nginxBinary() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// BehindNginx starts nginx in front of the server, on a free loopback
// port, stopped at the end of the test. The test is skipped when nginx is
// not installed.
func (s *Server) BehindNginx() *Nginx {
	s.t.Helper()
	bin := nginxBinary()
	if bin == "" {
		s.t.Skip("nginx is not installed (Debian's package nginx, which .ci/run installs): no test behind a real reverse proxy")
	}
	dir := s.t.TempDir()
	addr := freeLoopbackAddr(s.t)
	upstream := strings.TrimPrefix(s.URL, "http://")
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, nginxConfig, dir, addr, upstream), 0o600); err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"),
		"-g", fmt.Sprintf("daemon off; master_process off; pid %s;", filepath.Join(dir, "nginx.pid")))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("daemontest: start nginx: %v", err)
	}
	var waited error
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		waited = cmd.Wait()
	}()
	s.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			s.t.Fatalf("daemontest: nginx exited (%v): %s", waited, log)
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("daemontest: nginx does not listen on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &Nginx{s: s, URL: "http://" + addr}
}

// freeLoopbackAddr is a loopback address with a port free a moment ago.
func freeLoopbackAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// ClientFrom returns a new client without session that reaches the
// server through the proxy, its connections leaving from the loopback
// address ip (as Server.ClientFrom): nginx forwards it as that client.
func (n *Nginx) ClientFrom(ip string) *Client {
	c := n.s.ClientFrom(ip)
	c.base = n.URL
	return c
}
