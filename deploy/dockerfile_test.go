package deploy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// instruction is one instruction of a Dockerfile: its keyword, upper
// case, and its arguments as written (continuation lines joined).
type instruction struct {
	cmd  string
	args string
}

// stage is one FROM of a Dockerfile and its instructions.
type stage struct {
	image, name  string
	instructions []instruction
}

// parseDockerfile reads the Dockerfile's stages: comments and blank lines
// skipped, lines ending in a backslash joined to the next.
func parseDockerfile(t *testing.T, path string) []stage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		stages []stage
		line   strings.Builder
	)
	for raw := range strings.SplitSeq(string(data), "\n") {
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && line.Len() == 0) {
			continue
		}
		if cont, ok := strings.CutSuffix(trimmed, "\\"); ok {
			line.WriteString(cont + " ")
			continue
		}
		line.WriteString(trimmed)
		cmd, args, _ := strings.Cut(strings.TrimSpace(line.String()), " ")
		line.Reset()
		cmd = strings.ToUpper(cmd)
		args = strings.Join(strings.Fields(args), " ")
		if cmd == "FROM" {
			f := strings.Fields(args)
			s := stage{image: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			if cmd != "ARG" {
				t.Fatalf("%s before the first FROM", cmd)
			}
			continue
		}
		last := &stages[len(stages)-1]
		last.instructions = append(last.instructions, instruction{cmd, args})
	}
	return stages
}

// all is the arguments of every instruction cmd of the stage.
func (s stage) all(cmd string) []string {
	var out []string
	for _, in := range s.instructions {
		if in.cmd == cmd {
			out = append(out, in.args)
		}
	}
	return out
}

// makeBuild is the Makefile's build of the binary, its variables expanded
// as the Dockerfile spells them: $(GO) is go, $(BIN) bin/primeur,
// $(LDFLAGS) its value with the commit a build argument, ${COMMIT}.
func makeBuild(t *testing.T) (recipe, bin string) {
	t.Helper()
	data, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GO": "go", "COMMIT": "${COMMIT}"}
	lines := strings.Split(string(data), "\n")
	for _, l := range lines {
		if m := regexp.MustCompile(`^(BIN|LDFLAGS)\s*:=\s*(.*)$`).FindStringSubmatch(l); m != nil {
			vars[m[1]] = m[2]
		}
	}
	expand := func(s string) string {
		for range 3 {
			for k, v := range vars {
				s = strings.ReplaceAll(s, "$("+k+")", v)
			}
		}
		return s
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "$(BIN):") {
			return expand(strings.TrimSpace(lines[i+1])), expand(vars["BIN"])
		}
	}
	t.Fatal("Makefile: no $(BIN) rule")
	return "", ""
}

// words is a shell command's words, quotes removed (enough for these
// commands, whose quotes only group).
func words(s string) []string {
	s = strings.NewReplacer(`"`, "", `'`, "").Replace(s)
	return strings.Fields(s)
}

// TestDockerfile: the Dockerfile builds what make build builds, and runs
// it as the README says — checked by reading it, as docker is not
// available here (README "In a container" gives the build). Its stages:
// the interface with npm ci and npm run build in a Node the UI accepts,
// the binary with the Makefile's very command in the Go of go.mod, and a
// final image FROM scratch holding the binary, the CA certificates and
// the time zones, run as a user that is not root, its data in a volume,
// without a HEALTHCHECK it could not run.
func TestDockerfile(t *testing.T) {
	stages := parseDockerfile(t, "../Dockerfile")
	if len(stages) != 3 {
		t.Fatalf("%d stages, want 3 (ui, build, the image)", len(stages))
	}
	ui, build, final := stages[0], stages[1], stages[2]

	// The interface: Node of the range ui/package.json declares.
	var pkg struct {
		Engines struct{ Node string } `json:"engines"`
	}
	data, err := os.ReadFile("../ui/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^node:(\d+)-`).FindStringSubmatch(ui.image)
	if ui.name != "ui" || m == nil {
		t.Fatalf("first stage: FROM %s AS %s, want node:<major>-… AS ui", ui.image, ui.name)
	}
	if major, _ := strconv.Atoi(m[1]); !nodeMajorAccepted(pkg.Engines.Node, major) {
		t.Errorf("node %d is outside ui/package.json's engines %q", major, pkg.Engines.Node)
	}
	runs := strings.Join(ui.all("RUN"), "\n")
	for _, want := range []string{"cd ui && npm ci", "cd ui && npm run build"} {
		if !strings.Contains(runs, want) {
			t.Errorf("ui stage: no %q (the Makefile's ui rule)", want)
		}
	}

	// The binary: go.mod's Go, the Makefile's command, the UI of the first
	// stage.
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if build.name != "build" || !strings.HasPrefix(build.image, "golang:"+string(goVersion[1])+"-") {
		t.Errorf("second stage: FROM %s AS %s, want golang:%s-… AS build", build.image, build.name, goVersion[1])
	}
	recipe, bin := makeBuild(t)
	found := false
	for _, run := range build.all("RUN") {
		if slices.Equal(words(run), words(recipe)) {
			found = true
		}
	}
	if !found {
		t.Errorf("build stage: no RUN %s (the Makefile's build, expanded); it has %q", recipe, build.all("RUN"))
	}
	if !slices.Contains(build.all("COPY"), "--from=ui /src/ui/dist ui/dist") {
		t.Errorf("build stage: the UI of the first stage is not copied into ui/dist: %q", build.all("COPY"))
	}
	if !slices.Contains(build.all("ARG"), "COMMIT=unknown") {
		t.Errorf("build stage: no ARG COMMIT=unknown")
	}

	// The image.
	if final.image != "scratch" && !strings.HasPrefix(final.image, "gcr.io/distroless/static") {
		t.Errorf("final stage FROM %s: scratch or distroless expected", final.image)
	}
	copies := strings.Join(final.all("COPY"), "\n")
	if !strings.Contains(copies, "--from=build /src/"+bin+" /primeur") {
		t.Errorf("the image does not hold the built %s as /primeur: %q", bin, copies)
	}
	if got := final.all("ENTRYPOINT"); !slices.Equal(got, []string{`["/primeur"]`}) {
		t.Errorf("ENTRYPOINT %q", got)
	}
	if got := final.all("CMD"); !slices.Equal(got, []string{`["serve"]`}) {
		t.Errorf("CMD %q", got)
	}
	users := final.all("USER")
	if len(users) != 1 {
		t.Fatalf("final stage: USER %q, want one", users)
	}
	uid, _, _ := strings.Cut(users[0], ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("USER %s: a number other than 0 expected (scratch has no /etc/passwd)", users[0])
	}
	env := strings.Join(final.all("ENV"), " ")
	for _, want := range []string{"PRIMEUR_DATA_DIR=/data", "PRIMEUR_ADDR=0.0.0.0:8080", "ZONEINFO=/usr/local/go/lib/time/zoneinfo.zip"} {
		if !strings.Contains(env, want) {
			t.Errorf("final stage: no ENV %s", want)
		}
	}
	if !slices.Contains(final.all("VOLUME"), "/data") || !slices.Contains(final.all("EXPOSE"), "8080") {
		t.Errorf("VOLUME %q, EXPOSE %q", final.all("VOLUME"), final.all("EXPOSE"))
	}
	if !strings.Contains(copies, "--chown="+users[0]+" /rootfs/data /data") {
		t.Errorf("/data is not given to the user %s: %q", users[0], copies)
	}
	rootfs := strings.Join(build.all("RUN"), "\n")
	for _, want := range []string{"/etc/ssl/certs/ca-certificates.crt", "/usr/local/go/lib/time/zoneinfo.zip", "chmod 1777 /rootfs/tmp"} {
		if !strings.Contains(rootfs, want) {
			t.Errorf("build stage: the image's %s is not prepared", want)
		}
	}
	if final.image == "scratch" && len(final.all("HEALTHCHECK")) > 0 {
		t.Errorf("a HEALTHCHECK on scratch has nothing to run it with")
	}

	// What it copies from the context exists, and .dockerignore keeps out
	// what must not go in.
	for _, s := range stages {
		for _, c := range s.all("COPY") {
			if strings.HasPrefix(c, "--from=") || strings.HasPrefix(c, ". ") {
				continue
			}
			f := strings.Fields(c)
			for _, src := range f[:len(f)-1] {
				if _, err := os.Stat(filepath.Join("..", src)); err != nil {
					t.Errorf("COPY %s: %v", src, err)
				}
			}
		}
	}
	ignore, err := os.ReadFile("../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	ignored := strings.Fields(string(ignore))
	for _, want := range []string{".git", "bin", "data", "ui/node_modules", "ui/dist"} {
		if !slices.Contains(ignored, want) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
}

// nodeMajorAccepted reports whether the latest release of a Node major
// version satisfies an engines range made of "^X.Y.Z" and ">=X.Y.Z"
// alternatives.
func nodeMajorAccepted(engines string, major int) bool {
	for alt := range strings.SplitSeq(engines, "||") {
		alt = strings.TrimSpace(alt)
		switch {
		case strings.HasPrefix(alt, "^"):
			v, _, _ := strings.Cut(alt[1:], ".")
			if n, _ := strconv.Atoi(v); n == major {
				return true
			}
		case strings.HasPrefix(alt, ">="):
			v, _, _ := strings.Cut(alt[2:], ".")
			if n, _ := strconv.Atoi(v); major >= n {
				return true
			}
		}
	}
	return false
}
