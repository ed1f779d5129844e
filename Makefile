# Patrimonio — the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO      ?= go
NPM     ?= npm
BIN     := bin/patrimonio
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X patrimonio/core.Version=$(VERSION)
# Runs a command with TEST_DATABASE_URL pointing at a throwaway Postgres cluster (or the one you set).
PGTMP   := bin/pgtmp
WITH_PG := ./$(PGTMP) --
# stripe-mock (the billing tests start it) is installed by `go install` into $(go env GOPATH)/bin.
export PATH := $(shell $(GO) env GOPATH)/bin:$(PATH)

.PHONY: help run build web server deps test vet static typecheck lint test-go test-unit test-e2e bench bench-web bench-assets bench-dashboard sim clean

help:
	@echo "make run    build the PWA and the server, start it on SQLite (http://localhost:8080)"
	@echo "make test   vet, typecheck, lint, Go tests (SQLite + Postgres), Vitest, Playwright e2e"
	@echo "make bench  sync and web benchmarks: BENCH lines, bench/results.json, bench/results-web.json"
	@echo "make bench-web  only the browser figures (initial JS, Lighthouse) of the production build"
	@echo "make bench-assets  only the asset list's figures (10,000 assets) in Chromium"

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

test: deps vet static test-go test-unit test-e2e

# The type check and the linter side by side: each is one single-threaded process (tsc, ESLint), so
# on two cores the pair takes the longer one's time instead of both (about 40 s less in CI).
static: deps
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck lint

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

# The e2e build (pwa/e2e/dist): the PWA plus the sync test page and the UI kit catalogue, which
# pwa/dist never contains.
test-e2e: build $(PGTMP)
	$(NPM) exec -- vite build --logLevel warn -c pwa/e2e/sync-page/vite.config.ts
	$(WITH_PG) $(NPM) run test:e2e

# Benchmarks (bench/README.md), never time limits inside tests: bench/cmd/syncbench builds and
# starts the server itself (free loopback ports, fresh databases on the throwaway Postgres of
# pgtmp), prints every figure as `BENCH <name> <value> <unit>` and writes bench/results.json; it
# also runs the Go microbenchmarks of sync/. BENCH_ARGS passes flags, e.g. BENCH_ARGS='-phases ingest'.
# 1,000 sockets need file descriptors: the soft limit is raised to the hard one.
BENCH_ARGS ?=
bench: deps $(PGTMP) build
	$(GO) build -o bin/syncbench ./bench/cmd/syncbench
	ulimit -n "$$(ulimit -Hn)" || true; $(WITH_PG) ./bin/syncbench -out bench/results.json $(BENCH_ARGS)
	$(NPM) exec -- tsx bench/web/webbench.ts $(BENCH_WEB_ARGS)
	$(NPM) exec -- tsx bench/assets/assetsbench.ts $(BENCH_ASSETS_ARGS)
	$(NPM) exec -- tsx bench/dashboard/dashboardbench.ts $(BENCH_DASHBOARD_ARGS)

# The browser figures (bench/web/webbench.ts): initial JS of /signin and / and Lighthouse 12
# mobile scores, on pwa/dist served by bin/patrimonio (SQLite) in Debian's Chromium; writes
# bench/results-web.json. BENCH_WEB_ARGS passes flags, e.g. BENCH_WEB_ARGS='--runs 1 --only js'.
BENCH_WEB_ARGS ?=
bench-web: build
	$(NPM) exec -- tsx bench/web/webbench.ts $(BENCH_WEB_ARGS)

# The asset list's figures (bench/assets/assetsbench.ts, bench/assets/README.md): 10,000 assets in
# 40 legal structures synced into Chromium; list ready, search keystroke, create until the row shows.
# Writes bench/results-assets.json. BENCH_ASSETS_ARGS passes flags, e.g. BENCH_ASSETS_ARGS='--runs 3'.
BENCH_ASSETS_ARGS ?=
bench-assets: build
	$(NPM) exec -- tsx bench/assets/assetsbench.ts $(BENCH_ASSETS_ARGS)

# The dashboard's figure (bench/dashboard/dashboardbench.ts): 10,000 assets and 50,000 valuations
# synced into Chromium; BENCH dashboard_ready = navigation to the net worth shown. Writes
# bench/results-dashboard.json. BENCH_DASHBOARD_ARGS passes flags, e.g. BENCH_DASHBOARD_ARGS='--runs 3'.
BENCH_DASHBOARD_ARGS ?=
bench-dashboard: build
	$(NPM) exec -- tsx bench/dashboard/dashboardbench.ts $(BENCH_DASHBOARD_ARGS)

# The seeded sync simulation (sync/sim) with more scenarios than make test runs (200):
# `make sim SEEDS=1000`. Add SIMFLAGS=-seedbase=N to pick the seeds, SIMFLAGS=-seed=N to replay one.
sim: $(PGTMP)
	$(WITH_PG) $(GO) test -count=1 -timeout 0 -run 'TestSimulation$$' -v ./sync/sim -seeds=$(or $(SEEDS),1000) $(SIMFLAGS)

clean:
	rm -rf bin pwa/dist pwa/e2e/dist test-results playwright-report
