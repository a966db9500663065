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

.PHONY: all build ui run test test-go test-ui test-e2e test-fuzz bench lint clean

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

## test: everything — Go (race detector, SQLite and, with
## PRIMEUR_TEST_DATABASE_URL, PostgreSQL), short fuzzing, the UI's type check
## and unit tests, the map data check, and the browser tests in Chromium
test: test-go test-fuzz test-ui test-e2e

test-go:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

## test-fuzz: every fuzz target of the module, FUZZTIME each (tools/fuzz.sh)
test-fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh tools/fuzz.sh

test-ui: ui/node_modules/.package-lock.json
	cd ui && $(NPM) run typecheck && $(NPM) test
	node tools/geodata/check.mjs

test-e2e: build
	node ui/scripts/bundle-report.mjs --check
	cd ui && $(NPM) run e2e

## bench: Go benchmarks and load measurements; figures go to docs/
bench: build
	@mkdir -p docs/bench
	node ui/scripts/bundle-report.mjs --markdown | tee docs/bench/bundle.md
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./... | tee docs/bench/go.txt

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	cd ui && $(NPM) run typecheck

clean:
	rm -rf bin ui/dist/assets ui/dist/index.html
