#!/bin/sh
# Prints, one per line, the packages of the module whose test binary can
# run two goroutines of ours at once — the ones `make test-go` runs under
# the race detector (issue 35). The detector reports a race only between
# goroutines that run; in a test binary where all of our code runs on the
# test's one goroutine it finds nothing, and costs three to four times the
# CPU (the plain `go test ./...` of the module: about 260 s of CPU; the
# same under -race: about 1,100 s).
#
# A package is listed when
#   - one of its files, tests included, starts a goroutine or runs code on
#     another one: a `go` statement, WaitGroup.Go, errgroup, t.Parallel, an httptest or
#     net/http server, net.Listen, time.AfterFunc, signal.Notify; or
#   - its test binary imports a package of the module whose code (tests
#     excluded) does, transitively (the daemon, the jobs, the commands, the
#     test SMTP server…).
# The check is textual and errs towards the detector: a comment that reads
# like one of those lines lists the package too. Usage: tools/racepkgs.sh
# (GO may name the go command).
set -eu

GO="${GO:-go}"
pattern='^[[:space:]]*go (func|[A-Za-z_][A-Za-z0-9_.]*\()|\.Go\(|errgroup|\.Parallel\(\)|httptest\.New(Unstarted|TLS)?Server|http\.(ListenAndServe|Serve)\(|net\.Listen\(|time\.AfterFunc\(|signal\.Notify\('

# "path dir" of every package; then the packages whose own non-test files
# match (code) and those whose test files match (tests).
list=$("$GO" list -f '{{.ImportPath}} {{.Dir}}' ./...)
code=""
tests=""
for pkg_dir in $(printf '%s\n' "$list" | tr ' ' '|'); do
	pkg=${pkg_dir%%|*}
	dir=${pkg_dir#*|}
	files=$(cd "$dir" && ls ./*.go 2>/dev/null || true)
	[ -n "$files" ] || continue
	if (cd "$dir" && ls ./*.go | grep -v '_test\.go$' | xargs -r grep -lE "$pattern" >/dev/null 2>&1); then
		code="$code $pkg"
	fi
	if (cd "$dir" && ls ./*.go | xargs -r grep -lE "$pattern" >/dev/null 2>&1); then
		tests="$tests $pkg"
	fi
done

# Each package with its dependencies (transitive, tests excluded) and its
# tests' imports; a test import's own dependencies come from its line.
"$GO" list -f '{{.ImportPath}}|{{join .Deps " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}' ./... |
	awk -F'|' -v code="$code" -v tests="$tests" '
	BEGIN {
		n = split(code, c, " "); for (i = 1; i <= n; i++) starts[c[i]] = 1
		n = split(tests, c, " "); for (i = 1; i <= n; i++) own[c[i]] = 1
	}
	{ pkg[NR] = $1; deps[$1] = $2; timp[$1] = $3 }
	END {
		for (k = 1; k <= NR; k++) {
			p = pkg[k]
			if (p in own) { print p; continue }
			all = deps[p] " " timp[p]
			n = split(timp[p], ti, " ")
			for (i = 1; i <= n; i++) if (ti[i] in deps) all = all " " deps[ti[i]]
			m = split(all, d, " ")
			for (j = 1; j <= m; j++) if (d[j] in starts) { print p; break }
		}
	}'
