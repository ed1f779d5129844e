# Patrimonio — the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO      ?= go
NPM     ?= npm
BIN     := bin/patrimonio
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X patrimonio/server.Version=$(VERSION)
# Runs a command with TEST_DATABASE_URL pointing at a throwaway Postgres cluster (or the one you set).
PGTMP   := bin/pgtmp
WITH_PG := ./$(PGTMP) --

.PHONY: help run build web server deps test vet typecheck lint test-go test-unit test-e2e bench sim clean

help:
	@echo "make run    build the PWA and the server, start it on SQLite (http://localhost:8080)"
	@echo "make test   vet, typecheck, lint, Go tests (SQLite + Postgres), Vitest, Playwright e2e"
	@echo "make bench  benchmarks (go test -bench over every package, with a throwaway Postgres)"

# npm packages from the lockfile; re-installed only when the lockfile changes.
node_modules/.package-lock.json: package-lock.json
	$(NPM) ci --no-audit --no-fund

deps: node_modules/.package-lock.json

web: deps
	$(NPM) run build -w pwa

server:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./server/cmd/patrimonio

$(PGTMP): FORCE
	$(GO) build -o $(PGTMP) ./server/cmd/pgtmp

.PHONY: FORCE
FORCE:

build: web server

run: build
	./$(BIN)

test: deps vet typecheck lint test-go test-unit test-e2e

vet:
	$(GO) vet ./...

typecheck: deps
	$(NPM) run typecheck

lint: deps
	$(NPM) run lint

test-go: $(PGTMP)
	$(WITH_PG) $(GO) test -count=1 ./...

test-unit: deps
	$(NPM) run test:unit

# The e2e build (pwa/e2e/dist): the PWA plus the sync test page, which pwa/dist never contains.
test-e2e: build $(PGTMP)
	$(NPM) exec -- vite build --logLevel warn -c pwa/e2e/sync-page/vite.config.ts
	$(WITH_PG) $(NPM) run test:e2e

# Benchmarks print figures (never time limits inside tests).
bench: $(PGTMP)
	$(WITH_PG) $(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin pwa/dist pwa/e2e/dist test-results playwright-report
