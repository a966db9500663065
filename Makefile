# Primeur — build, run and test. `make run` and `make test` are all a fresh
# machine needs (Go, Node 20 and npm installed; Chromium for the browser tests).

GO        ?= go
NPM       ?= npm
BIN       := bin/primeur
COMMIT    := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -s -w -X primeur/commands.commit=$(COMMIT)
UI_SRC    := $(shell find ui/src ui/public -type f 2>/dev/null) ui/index.html ui/package.json ui/vite.config.ts
GO_SRC    := $(shell find . -name '*.go' -not -path './ui/*' -not -path './tools/*') go.mod go.sum
FUZZTIME  ?= 5s

.PHONY: all build ui run test test-go test-ui test-contract test-e2e test-fuzz bench bench-national lint clean

all: build

## ui/node_modules: install the front end's packages from the lock file
ui/node_modules/.package-lock.json: ui/package-lock.json
	cd ui && $(NPM) ci --no-audit --no-fund
	@touch $@

## ui: build the front end into ui/dist (embedded by embed.go)
ui/dist/index.html: ui/node_modules/.package-lock.json $(UI_SRC)
	cd ui && $(NPM) run build

ui: ui/dist/index.html

## build: the single binary, UI included, without cgo
$(BIN): ui/dist/index.html $(GO_SRC)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/primeur

build: $(BIN)

## run: the daemon on SQLite in ./data with the demo world; prints the logins
run: build
	$(BIN) serve --demo

## test: everything — the linters (make lint), Go (race detector, SQLite
## and, with PRIMEUR_TEST_DATABASE_URL, PostgreSQL), short fuzzing, the UI's
## unit tests, the map data check, the API contract, and the browser tests
## in Chromium
test: lint test-go test-fuzz test-ui test-contract test-e2e

## test-go: the Go tests (go vet runs in make lint) and those of the
## vendored fpdf (third_party/fpdf, its own module), then every invoice and
## credit note they made (core/facturx/facturxtest.Keep: the demo world, each
## VAT regime, credit notes, complementary and multi-décade invoices)
## validated in one call against the official Factur-X EN 16931 XSD and
## schematrons and the French CTC schematron (testdata/facturx)
FACTURX_OUT := $(CURDIR)/build/facturx
test-go:
	rm -rf $(FACTURX_OUT)
	PRIMEUR_FACTURX_OUT=$(FACTURX_OUT) $(GO) test -race -count=1 ./...
	cd third_party/fpdf && $(GO) test -race -count=1 ./...
	bash testdata/facturx/validate-all.sh $(FACTURX_OUT)

## test-fuzz: every fuzz target of the module, FUZZTIME each (tools/fuzz.sh)
test-fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh tools/fuzz.sh

## test-ui: the UI's unit tests (its type check runs in make lint)
test-ui: ui/node_modules/.package-lock.json
	cd ui && $(NPM) test
	node tools/geodata/check.mjs

## tools/contract/node_modules: the contract test's packages, from its lock file
tools/contract/node_modules/.package-lock.json: tools/contract/package-lock.json
	cd tools/contract && $(NPM) ci --no-audit --no-fund
	@touch $@

## test-contract: the OpenAPI document of the built binary linted by redocly
## with the committed ruleset (tools/contract/redocly.yaml); a client
## generated from it (openapi-typescript, openapi-fetch) compiled in
## TypeScript's strict mode and run against the binary's daemon on a fresh
## SQLite data dir, every answer checked against its schema (ajv). What it
## generates stays in tools/contract/build, never committed.
test-contract: build tools/contract/node_modules/.package-lock.json
	cd tools/contract && PRIMEUR_BIN=$(CURDIR)/$(BIN) $(NPM) test

test-e2e: build
	node ui/scripts/bundle-report.mjs --check
	cd ui && $(NPM) run e2e

## bin/hey: the load generator of `make bench` (github.com/rakyll/hey, a Go
## tool dependency of go.mod: built from the module proxy when missing)
bin/hey: go.mod go.sum
	$(GO) build -o $@ github.com/rakyll/hey

## bench: the chunk report, every Go benchmark, then the platform-scale load
## measurements (tools/loadbench: a platform of 200 shops and one of 20,
## seeded in bulk, the real daemon loaded over loopback by 16 clients) on
## SQLite and, with BENCH_DATABASE_URL (default PRIMEUR_TEST_DATABASE_URL),
## PostgreSQL; the figures are written into docs/BENCHMARKS.md between its
## loadbench markers, the raw outputs into docs/bench/. Last, the slow-line
## times of issue 19 (ui/e2e/slowline.bench.ts: Chromium's network
## emulation, 1.6 Mbit/s, 150 ms, cold cache, the demo world), written
## between the slowline markers, and the planner's table against the shell's
## first paint (ui/e2e/plannerpaint.bench.ts, issue 20: cold loads over
## loopback, the demo planners and a seeded 150-product shop), between the
## plannerpaint markers. The load bench measures each request in 2 rounds
## (its default is 3) to keep make bench under 20 minutes on 2 cores. The
## Go benchmarks run one package at a time (-p 1): with two at once, each
## package's ratios to its limits were measured beside another package's
## benchmarks on the other core (GET /api/needs with brotli 0.38 of its
## limit instead of 0.55-0.59 alone); it costs no time (5 min 17 s against
## about 5 min, the builds cached).
BENCH_DATABASE_URL ?= $(PRIMEUR_TEST_DATABASE_URL)
bench: build bin/hey
	@mkdir -p docs/bench
	@start=$$(date +%s); \
	node ui/scripts/bundle-report.mjs --markdown > docs/bench/bundle.md || exit 1; \
	cat docs/bench/bundle.md; \
	PRIMEUR_TEST_DATABASE_URL='$(BENCH_DATABASE_URL)' $(GO) test -p 1 -run '^$$' -bench . -benchmem -count=1 ./... > docs/bench/go.txt; \
	status=$$?; cat docs/bench/go.txt; [ $$status -eq 0 ] || exit $$status; \
	$(GO) run ./tools/loadbench run --bin $(BIN) --hey bin/hey --rounds 2 --database-url '$(BENCH_DATABASE_URL)' --out docs/bench/load.json || exit 1; \
	$(GO) run ./tools/loadbench report --total $$(( $$(date +%s) - start ))s --load docs/bench/load.json \
		--go docs/bench/go.txt --bundle docs/bench/bundle.md --doc docs/BENCHMARKS.md || exit 1; \
	(cd ui && PRIMEUR_BIN=$(CURDIR)/$(BIN) PRIMEUR_SLOWLINE_OUT=$(CURDIR)/docs/bench/slowline.json \
		PRIMEUR_SLOWLINE_DOC=$(CURDIR)/docs/BENCHMARKS.md PRIMEUR_PLANNERPAINT_OUT=$(CURDIR)/docs/bench/plannerpaint.json \
		PRIMEUR_PLANNERPAINT_DOC=$(CURDIR)/docs/BENCHMARKS.md npx playwright test --config playwright.bench.config.ts) || exit 1; \
	echo "make bench: $$(( $$(date +%s) - start )) s; figures in docs/BENCHMARKS.md"

## bench-national: the same users on a platform of all of France (issue
## 20): the 200-shop platform of make bench (10 regions, traded) and the
## same 10 regions surrounded by accounts-only France up to 20,000 shops
## and 100,000 producers placed as people live (loadbench seed --national,
## accounts.InsertAll), measured side by side round by round — every
## request of make bench's table plus the map of a dense département — on
## SQLite and, with BENCH_DATABASE_URL, PostgreSQL. The CPU per request of
## national ÷ 200 shops (goal ≤ 1.2×) is written into docs/BENCHMARKS.md
## between its loadbench-national markers, the raw figures into
## docs/bench/load-national.json. About 30 minutes on 2 cores with both
## engines; not part of make bench.
bench-national: build bin/hey
	@mkdir -p docs/bench
	$(GO) run ./tools/loadbench run --bin $(BIN) --hey bin/hey --database-url '$(BENCH_DATABASE_URL)' \
		--regions 10 --national --out docs/bench/load-national.json
	$(GO) run ./tools/loadbench report --national --load docs/bench/load-national.json --doc docs/BENCHMARKS.md

## bin/golangci-lint: the Go linters of `make lint` (golangci-lint v2, a
## tool of its own module tools/lint/go.mod, so that its dependencies never
## move Primeur's; built from the module proxy when missing)
bin/golangci-lint: tools/lint/go.mod tools/lint/go.sum
	cd tools/lint && $(GO) build -o ../../$@ github.com/golangci/golangci-lint/v2/cmd/golangci-lint

## lint: gofmt (fails on any Go file it would change), go vet,
## golangci-lint with the committed .golangci.yml (--allow-parallel-runners:
## another lint of the machine, in another clone, waits for nothing and
## fails nothing, golangci-lint's machine-wide lock being skipped); the UI's type check,
## ESLint (ui/eslint.config.js) and prettier --check (ui/.prettierrc.json)
lint: bin/golangci-lint ui/node_modules/.package-lock.json
	@unformatted=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd third_party/fpdf && $(GO) vet ./...
	bin/golangci-lint run --allow-parallel-runners ./...
	cd ui && $(NPM) run typecheck && $(NPM) run lint && $(NPM) run format:check

clean:
	rm -rf bin ui/dist/assets ui/dist/index.html tools/contract/build
