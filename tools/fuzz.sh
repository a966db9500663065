#!/bin/sh
# Runs every Go fuzz target of the module for a short time (FUZZTIME, 5s by
# default): `make test-fuzz`. The targets come from `go test -list`, which
# prints each package's test names followed by its "ok <package>" line, so
# every target is run in its own package whatever its name; a package that
# does not build fails the run instead of being skipped. Each target must
# have its committed seed corpus, testdata/fuzz/<Target>/ beside it. A
# failure is a failure, except Go 1.26's fuzztime race (see below).
set -eu

GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-5s}"

list=$("$GO" test -list '^Fuzz' ./...)
# "pkg Target…" per package with fuzz targets.
targets=$(printf '%s\n' "$list" | awk '
	/^Fuzz[A-Za-z0-9_]*$/ { names = names " " $0; next }
	/^ok[ \t]/ { if (names != "") print $2 names; names = "" }
')
if [ -z "$targets" ]; then
	echo "fuzz: no fuzz target found" >&2
	exit 1
fi

n=0
# One line per package: the package, then its targets.
printf '%s\n' "$targets" | {
	while read -r pkg names; do
		dir=$("$GO" list -f '{{.Dir}}' "$pkg")
		for name in $names; do
			if [ ! -d "$dir/testdata/fuzz/$name" ]; then
				echo "fuzz: $pkg $name has no seed corpus in $dir/testdata/fuzz/$name" >&2
				exit 1
			fi
			echo "fuzz $pkg $name ($FUZZTIME)"
			log=$(mktemp)
			if ! "$GO" test -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" "$pkg" >"$log" 2>&1; then
				cat "$log"
				# Go 1.26's fuzzing coordinator can report its own -fuzztime
				# deadline as a failure (golang/go#75804, fixed in Go 1.27):
				# a bare "context deadline exceeded", no failing input. Only
				# that case passes, and only if the corpus then replays clean.
				if grep -q 'context deadline exceeded' "$log" &&
					! grep -q -e 'Failing input written' -e 'panic:' -e '_test\.go:[0-9]*:' "$log"; then
					echo "fuzz: $name stopped on Go's fuzztime race (golang/go#75804); replaying its corpus"
					"$GO" test -count=1 -run "^$name\$" "$pkg"
				else
					rm -f "$log"
					exit 1
				fi
			else
				cat "$log"
			fi
			rm -f "$log"
			n=$((n + 1))
		done
	done
	echo "fuzz: $n targets"
}
