// Command syncbench measures the sync engine end to end for `make bench` (bench/README.md): it
// builds the server binary, starts it on free loopback ports against fresh databases of the
// Postgres at TEST_DATABASE_URL (the throwaway cluster pgtmp starts), signs users up through the
// HTTP API, drives devices over real sockets (Go for the server-side figures, clientdb in Node for
// the device-side ones), prints every figure as `BENCH <name> <value> <unit>` and writes them all
// to a JSON file with their targets.
//
//	pgtmp -- syncbench [-out bench/results.json] [-phases conns,ingest,clientdb,micro]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

type config struct {
	repo, out string
	phases    []string

	ingest       ingestConfig
	ingestRounds int
	samples      int
	idle         int
	perUser      int
	offline      int
	cold         int
	microFilter  string
	profileDir   string
	poolMax      int
	settle       bool
}

func main() {
	os.Exit(run())
}

func run() int {
	cfg := config{}
	var phases string
	flag.StringVar(&cfg.repo, "repo", ".", "repository root")
	flag.StringVar(&cfg.out, "out", "bench/results.json", "where to write the results")
	flag.StringVar(&phases, "phases", "conns,ingest,clientdb,micro", "phases to run: conns (idle_rss, conns_1k_rss, fanout), ingest, clientdb (offline, cold sync), coldwire (the cold sync's Go baseline only), micro (go test -bench ./sync/...)")
	flag.IntVar(&cfg.ingest.clients, "ingest-clients", 4, "ingest: pushing devices (and raw writers)")
	flag.IntVar(&cfg.ingest.batches, "ingest-batches", 40, "ingest: measured pushes per device and round")
	flag.IntVar(&cfg.ingestRounds, "ingest-rounds", 3, "ingest: rounds (raw upsert then ingest, each round)")
	flag.IntVar(&cfg.ingest.batchSize, "ingest-batch", 500, "ingest: mutations per push (rows per raw batch)")
	flag.IntVar(&cfg.ingest.window, "ingest-window", 2, "ingest: pushes in flight per device")
	flag.IntVar(&cfg.ingest.warmup, "ingest-warmup", 2, "ingest: pushes per device before the clock starts")
	flag.BoolVar(&cfg.ingest.follow, "ingest-follow", true, "ingest: devices sync their workspace live (the changes come back to them)")
	flag.IntVar(&cfg.samples, "samples", 1000, "fan-out: measured pushes")
	flag.BoolVar(&cfg.settle, "settle", true, "conns: wait for the server's periodic GC for conns_1k_rss_settled (up to 170 s after its start); false skips that figure")
	flag.IntVar(&cfg.idle, "idle", 1000, "idle sockets open during fan-out and for conns_1k_rss")
	flag.IntVar(&cfg.perUser, "per-user", 32, "idle sockets per user (the server's per-user limit is 32)")
	flag.IntVar(&cfg.offline, "offline", 10000, "offline edits for offline_10k")
	flag.IntVar(&cfg.cold, "cold", 100000, "records of the cold-sync workspace")
	flag.StringVar(&cfg.microFilter, "micro", ".", "go test -bench pattern of the micro phase")
	flag.IntVar(&cfg.poolMax, "pool-max-conns", 0, "the server's Postgres pool size (pool_max_conns in its DATABASE_URL); 0: the server's default")
	flag.StringVar(&cfg.profileDir, "profile", "", "run the server with the profiler (bench/cmd/profserver) and save its profiles into this directory")
	flag.Parse()
	cfg.phases = strings.Split(phases, ",")

	adminURL := os.Getenv("TEST_DATABASE_URL")
	if adminURL == "" {
		fmt.Fprintln(os.Stderr, "syncbench: TEST_DATABASE_URL is not set: run it under pgtmp (make bench)")
		return 2
	}
	repo, err := filepath.Abs(cfg.repo)
	if err != nil {
		fmt.Fprintln(os.Stderr, "syncbench:", err)
		return 2
	}
	cfg.repo = repo
	commit, dirty := gitCommit(repo)
	res := &results{Date: nowUTC(), Commit: commit, Dirty: dirty, Machine: machineInfo(), Config: map[string]any{
		"ingestClients": cfg.ingest.clients, "ingestBatches": cfg.ingest.batches, "ingestBatchSize": cfg.ingest.batchSize,
		"ingestRounds": cfg.ingestRounds, "ingestWindow": cfg.ingest.window, "ingestWarmup": cfg.ingest.warmup, "ingestFollow": cfg.ingest.follow,
		"fanoutSamples": cfg.samples, "idleSockets": cfg.idle, "idleSocketsPerUser": cfg.perUser,
		"offlineEdits": cfg.offline, "coldRecords": cfg.cold, "phases": cfg.phases,
		"poolMaxConns": cfg.poolMax, "profiled": cfg.profileDir != "",
	}}
	tmp, err := os.MkdirTemp("", "syncbench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "syncbench:", err)
		return 1
	}
	defer os.RemoveAll(tmp)

	ctx := context.Background()
	pg := cluster{adminURL: adminURL}
	logf("building the server")
	if cfg.profileDir != "" {
		if err := os.MkdirAll(cfg.profileDir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "syncbench:", err)
			return 1
		}
	}
	bin, err := buildServer(ctx, repo, tmp, cfg.profileDir != "")
	if err != nil {
		fmt.Fprintln(os.Stderr, "syncbench:", err)
		return 1
	}
	b := &bench{cfg: cfg, pg: pg, bin: bin, tmp: tmp, res: res, live: map[int]func(){}}
	// Interrupted: stop the servers (they would stop anyway with this process, by their parent-death
	// signal), drop their databases and remove the temporary directory.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-signals
		logf("%v: stopping", sig)
		b.stopAll()
		os.RemoveAll(tmp)
		os.Exit(130)
	}()
	failed := false
	for _, phase := range cfg.phases {
		var err error
		start := time.Now()
		logf("phase %s", phase)
		switch phase {
		case "conns":
			err = b.conns(ctx)
		case "ingest":
			err = b.ingestPhase(ctx)
		case "clientdb":
			err = b.clientdb(ctx, true)
		case "coldwire":
			err = b.clientdb(ctx, false)
		case "micro":
			err = b.micro(ctx)
		default:
			err = fmt.Errorf("unknown phase %q", phase)
		}
		if err != nil {
			failed = true
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", phase, err))
			fmt.Fprintf(os.Stderr, "syncbench: phase %s failed: %v\n", phase, err)
		}
		logf("phase %s took %.1f s", phase, time.Since(start).Seconds())
	}
	if err := res.write(cfg.out); err != nil {
		fmt.Fprintln(os.Stderr, "syncbench:", err)
		return 1
	}
	summary(res)
	logf("results written to %s", cfg.out)
	if failed {
		return 1
	}
	return 0
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "syncbench: "+format+"\n", args...)
}

// summary prints which targets were met.
func summary(res *results) {
	fmt.Println("targets:")
	for _, f := range res.Figures {
		if f.Target == nil {
			continue
		}
		verdict := "met"
		if !*f.Met {
			verdict = "NOT met"
		}
		fmt.Printf("  %-24s %10s %-12s target %-40s %s\n", f.Name, formatValue(f.Value), f.Unit, f.Target.Text, verdict)
	}
}

type bench struct {
	cfg config
	pg  cluster
	bin string
	tmp string
	res *results

	mu   sync.Mutex
	live map[int]func() // what stops each running server, by a number
	next int
}

// stopAll stops every running server (on an interrupt).
func (b *bench) stopAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, stop := range b.live {
		stop()
	}
	b.live = map[int]func(){}
}

// server starts the binary against a fresh database; stop it with the returned function (which
// also drops the database).
func (b *bench) server(ctx context.Context, name string) (*serverProc, func(), error) {
	dbURL, err := b.pg.newDatabase(ctx, "bench_"+name)
	if err != nil {
		return nil, nil, err
	}
	if b.res.Postgres == nil {
		if b.res.Postgres, err = b.pg.settings(ctx, dbURL); err != nil {
			return nil, nil, err
		}
	}
	dir := filepath.Join(b.tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	serverURL := dbURL
	if b.cfg.poolMax > 0 {
		serverURL += "&pool_max_conns=" + strconv.Itoa(b.cfg.poolMax)
		if !strings.Contains(dbURL, "?") {
			serverURL = dbURL + "?pool_max_conns=" + strconv.Itoa(b.cfg.poolMax)
		}
	}
	s, err := startServer(b.bin, serverURL, dir, "", b.cfg.profileDir != "")
	if err != nil {
		_ = b.pg.dropDatabase(ctx, dbURL)
		return nil, nil, err
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			s.stop()
			if err := b.pg.dropDatabase(ctx, dbURL); err != nil {
				logf("drop database: %v", err)
			}
		})
	}
	b.mu.Lock()
	id := b.next
	b.next++
	b.live[id] = stop
	b.mu.Unlock()
	return s, func() {
		stop()
		b.mu.Lock()
		delete(b.live, id)
		b.mu.Unlock()
	}, nil
}

// conns: idle_rss and conns_1k_rss on a freshly started server, fan-out latency with the idle
// sockets open, the RSS once the Go runtime's periodic GC has run (sockets still open), and
// fan-out latency once they are closed (the baseline).
func (b *bench) conns(ctx context.Context) error {
	s, stop, err := b.server(ctx, "conns")
	if err != nil {
		return err
	}
	defer func() { stop() }()

	nUsers := (b.cfg.idle + b.cfg.perUser - 1) / b.cfg.perUser
	logf("signing up %d users for %d idle sockets, and one for the fan-out pair", nUsers, b.cfg.idle)
	users, err := signUpMany(s.url, "idle", nUsers, 2)
	if err != nil {
		return err
	}
	owner, err := signUp(s.url, "fanout")
	if err != nil {
		return err
	}
	cookieB, err := owner.signIn(s.url)
	if err != nil {
		return err
	}
	// A fresh process for the memory figures, as after a deploy, when every device reconnects:
	// the sign-ups hashed passwords with argon2id (64 MiB each) in this one. Sessions live in the
	// database and survive the restart.
	restarted, err := s.restart()
	if err != nil {
		return err
	}
	*s = *restarted
	startedAt := time.Now()
	time.Sleep(2 * time.Second)
	idle, err := rssMB(s.pid())
	if err != nil {
		return err
	}
	b.res.add("idle_rss", idle, "MB", nil, "server RSS (VmRSS) 2 s after start, no socket open")
	if err := s.profile(b.cfg.profileDir, "idle_memstats", "memstats", 0); err != nil {
		return err
	}

	// The sockets open right away, as when every device reconnects after a deploy: nothing else
	// has run on the server in between (the figure depends on what the Go runtime has collected
	// since start; see conns_1k_rss_settled).
	logf("opening %d idle sockets", b.cfg.idle)
	ic, err := openIdle(s, users, b.cfg.idle, b.cfg.perUser, 16)
	if err != nil {
		return err
	}
	defer ic.close()
	time.Sleep(3 * time.Second)
	withConns, err := rssMB(s.pid())
	if err != nil {
		return err
	}
	b.res.add("conns_1k_rss", withConns, "MB", below(100, "< 100 MB, issue 17"),
		fmt.Sprintf("server RSS (VmRSS) with %d authenticated sockets open (each live on its user's workspace), opened right after the server started (%.0f s before), 3 s after the last one opened", b.cfg.idle, time.Since(startedAt).Seconds()))
	b.res.add("rss_per_conn", (withConns-idle)*1024/float64(b.cfg.idle), "KB", nil, "context: (conns_1k_rss - idle_rss) / idle sockets")
	if err := s.profile(b.cfg.profileDir, "conns_memstats", "memstats", 0); err != nil {
		return err
	}

	pair, err := openFanoutPair(s, owner, owner.Cookie, cookieB)
	if err != nil {
		return err
	}
	defer pair.close()
	logf("fan-out with %d idle sockets open: %d samples", b.cfg.idle, b.cfg.samples)
	waitProfile := s.cpuProfile(b.cfg.profileDir, "fanout_cpu", 10)
	lat, err := pair.measure(b.cfg.samples, 20, 10*time.Millisecond)
	waitProfile()
	if err != nil {
		return err
	}
	b.res.add("fanout_latency_median", percentileMS(lat, 50), "ms", below(1, "<= 1 ms, issue 17"),
		fmt.Sprintf("push of one mutation (a task creation) on device A until device B reads the change frame carrying it (same user and workspace, both live), %d other idle sockets open; median of %d pushes, one at a time", b.cfg.idle, len(lat)))
	b.res.add("fanout_latency_p99", percentileMS(lat, 99), "ms", below(5, "<= 5 ms, issue 17"), "the same, 99th percentile")
	if b.cfg.settle {
		logf("waiting for the server's periodic GC (2 minutes after its start), the sockets still open")
		settled, err := restingRSS(s.pid(), startedAt, withConns)
		if err != nil {
			return err
		}
		b.res.add("conns_1k_rss_settled", settled, "MB", nil,
			"context: conns_1k_rss with the same sockets open, after the Go runtime's periodic GC (2 minutes after start) returned the memory freed since start (mostly the 64 MiB scratch of the password hash the server computes at start)")
		for _, kind := range []string{"memstats", "heap", "goroutine"} {
			if err := s.profile(b.cfg.profileDir, "settled_"+kind, kind, 0); err != nil {
				return err
			}
		}
	}

	ic.close()
	time.Sleep(2 * time.Second)
	logf("fan-out without idle sockets (baseline): %d samples", b.cfg.samples)
	base, err := pair.measure(b.cfg.samples, 20, 10*time.Millisecond)
	if err != nil {
		return err
	}
	b.res.add("fanout_latency_median_no_idle", percentileMS(base, 50), "ms", nil, "baseline: fanout_latency_median with the idle sockets closed (same server, right after)")
	b.res.add("fanout_latency_p99_no_idle", percentileMS(base, 99), "ms", nil, "baseline: fanout_latency_p99 with the idle sockets closed")
	rtt, err := roundTrips(ctx, s.dbURL, 300, 10*time.Millisecond)
	if err != nil {
		return err
	}
	b.res.add("fanout_pg_round_trip", percentileMS(rtt, 50), "ms", nil,
		"context: one round trip to Postgres (SELECT 1 on the phase's database, from the bench), median of 300, each after the same 10 ms pause as the fan-out's samples; a live edit makes two (its reads, then its writes and commit), so this machine's wake-up latency after a pause is in the fan-out twice")
	return nil
}

// roundTrips measures n round trips of SELECT 1 on one connection to dbURL, each `gap` after the
// one before.
func roundTrips(ctx context.Context, dbURL string, n int, gap time.Duration) ([]time.Duration, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	out := make([]time.Duration, 0, n)
	for range n {
		var one int
		start := time.Now()
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			return nil, fmt.Errorf("round trip: %w", err)
		}
		out = append(out, time.Since(start))
		time.Sleep(gap)
	}
	return out, nil
}

// ingestPhase: the raw upsert baseline, then ingest through the sockets, on one database.
func (b *bench) ingestPhase(ctx context.Context) error {
	s, stop, err := b.server(ctx, "ingest")
	if err != nil {
		return err
	}
	defer stop()
	users, err := signUpMany(s.url, "ingest", b.cfg.ingest.clients, 2)
	if err != nil {
		return err
	}
	var workspaces []string
	for _, u := range users {
		workspaces = append(workspaces, u.Workspace)
	}
	c := b.cfg.ingest
	dbURL := plainURL(s.dbURL)
	pg, err := findPostgres(ctx, dbURL)
	if err != nil {
		logf("cannot measure the CPU of Postgres (%v): its figures will be 0", err)
	}
	if err := prepareRawTable(ctx, dbURL); err != nil {
		return err
	}
	// Rounds alternate the baseline and the measurement, so that a change in what else runs on
	// the machine weighs on both; each figure is the median of its rounds.
	var raws, ins []ingestResult
	var ratios []float64
	for round := 1; round <= b.cfg.ingestRounds; round++ {
		if err := checkpoint(ctx, dbURL); err != nil {
			return err
		}
		logf("round %d: raw upsert, %d writers x %d batches of %d rows", round, c.clients, c.batches, c.batchSize)
		raw, err := runRawUpsert(ctx, dbURL, workspaces, c, pg)
		if err != nil {
			return err
		}
		if err := checkpoint(ctx, dbURL); err != nil {
			return err
		}
		logf("round %d: ingest, %d devices x %d pushes of %d mutations, %d in flight each", round, c.clients, c.batches, c.batchSize, c.window)
		in, err := runIngest(s, users, c, pg, func() func() {
			if round != 1 {
				return func() {}
			}
			cpu := s.cpuProfile(b.cfg.profileDir, "ingest_cpu", 8)
			trace := s.cpuProfile(b.cfg.profileDir, "ingest_trace", 3)
			allocs := s.cpuProfile(b.cfg.profileDir, "ingest_allocs", 8)
			return func() { cpu(); trace(); allocs() }
		})
		if err != nil {
			return fmt.Errorf("%w\nserver log:\n%s", err, s.logTail())
		}
		logf("round %d: ingest %.0f mutations/s, raw %.0f rows/s, ratio %.3f", round, in.rate(), raw.rate(), in.rate()/raw.rate())
		raws, ins, ratios = append(raws, raw), append(ins, in), append(ratios, in.rate()/raw.rate())
		b.res.detail("ingestRounds", map[string]float64{"round": float64(round), "ingest": in.rate(), "rawUpsert": raw.rate(), "ratio": in.rate() / raw.rate(),
			"serverCpuUsPerMutation": in.perMutation(in.cpuServer), "postgresCpuUsPerMutation": in.perMutation(in.cpuPostgres),
			"rawPostgresCpuUsPerRow": raw.perMutation(raw.cpuPostgres)})
	}
	if err := checkIngested(ctx, dbURL, workspaces, b.cfg.ingestRounds*c.clients*(c.warmup+c.batches)*c.batchSize); err != nil {
		return err
	}
	inRate, rawRate := median(rates(ins)), median(rates(raws))
	// The target is both bounds: at least 20,000/s and at least half of the raw rate.
	b.res.add("ingest", inRate, "mutations/s", atLeast(max(20000, rawRate/2), fmt.Sprintf(">= 20000 and >= raw/2 (%.0f)", rawRate/2)),
		fmt.Sprintf("%d devices (one user and workspace each) push %d pushes of %d asset creations, %d in flight, following their workspace live; mutations acknowledged as applied (the ack follows the commit) / time from the first push to the last ack; median of %d rounds", c.clients, c.batches, c.batchSize, c.window, len(ins)))
	b.res.add("ingest_raw_upsert", rawRate, "rows/s", nil,
		fmt.Sprintf("baseline: %d writers upsert the same record states straight into a table shaped like sync_records, %d batches of %d rows each, one INSERT ... ON CONFLICT DO UPDATE and commit per batch; median of %d rounds, each just before an ingest round", c.clients, c.batches, c.batchSize, len(raws)))
	b.res.add("ingest_vs_raw", median(ratios), "ratio", atLeast(0.6, ">= 0.6, issue 17"), "ingest / ingest_raw_upsert of the same round; median of the rounds")
	in, raw := total(ins), total(raws)
	b.res.add("ingest_cpu_server", in.perMutation(in.cpuServer), "us/mutation", nil, "context: CPU time (user+system) of the server process during ingest, per mutation (all rounds)")
	b.res.add("ingest_cpu_postgres", in.perMutation(in.cpuPostgres), "us/mutation", nil, "context: CPU time of every Postgres process during ingest, per mutation")
	b.res.add("ingest_cpu_devices", in.perMutation(in.cpuBench), "us/mutation", nil, "context: CPU time of the bench process (the 4 devices) during ingest, per mutation")
	b.res.add("ingest_raw_cpu_postgres", raw.perMutation(raw.cpuPostgres), "us/row", nil, "context: CPU time of every Postgres process during the raw upsert, per row")
	b.res.add("ingest_raw_cpu_writers", raw.perMutation(raw.cpuBench), "us/row", nil, "context: CPU time of the bench process (the raw writers) during the raw upsert, per row")
	return nil
}

func rates(rs []ingestResult) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.rate()
	}
	return out
}

// total adds up rounds (mutations, time and CPU).
func total(rs []ingestResult) ingestResult {
	var t ingestResult
	for _, r := range rs {
		t.mutations += r.mutations
		t.elapsed += r.elapsed
		t.cpuServer += r.cpuServer
		t.cpuPostgres += r.cpuPostgres
		t.cpuBench += r.cpuBench
	}
	return t
}

// median of values (the mean of the middle two for an even count).
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func checkpoint(ctx context.Context, dbURL string) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `CHECKPOINT`)
	return err
}

// checkIngested checks that the acknowledged mutations are in the database: records and changes.
func checkIngested(ctx context.Context, dbURL string, workspaces []string, want int) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var records, changes int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM sync_records WHERE workspace_id = ANY($1)`, workspaces).Scan(&records); err != nil {
		return err
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM sync_changes WHERE workspace_id = ANY($1)`, workspaces).Scan(&changes); err != nil {
		return err
	}
	if records != want || changes != want {
		return fmt.Errorf("after ingest the database holds %d records and %d changes, want %d of each", records, changes, want)
	}
	return nil
}

// clientdb: offline_10k and cold_sync_100k with clientdb in Node, and the cold sync's wire
// baseline.
func (b *bench) clientdb(ctx context.Context, node bool) error {
	s, stop, err := b.server(ctx, "clientdb")
	if err != nil {
		return err
	}
	defer stop()
	owner, err := signUp(s.url, "cold")
	if err != nil {
		return err
	}
	logf("seeding %d records into one workspace", b.cfg.cold)
	t := time.Now()
	if err := seedWorkspace(s, owner, b.cfg.cold, 2); err != nil {
		return err
	}
	logf("seeded in %.1f s", time.Since(t).Seconds())
	n, wire, err := pullSnapshot(s, owner)
	if err != nil {
		return err
	}
	if n != b.cfg.cold {
		return fmt.Errorf("the snapshot held %d records, want %d", n, b.cfg.cold)
	}
	coldName := fmt.Sprintf("cold_sync_%dk", b.cfg.cold/1000)
	offlineName := fmt.Sprintf("offline_%dk", b.cfg.offline/1000)
	if !node {
		b.res.add(coldName+"_wire", wire.Seconds(), "s", nil, "baseline: the same snapshot pulled over the socket by a Go client that only parses the pages")
		return nil
	}

	out, err := b.nodeResult(ctx, "bench/node/clientdb-bench.ts",
		"BENCH_BASE_URL="+s.url, "BENCH_SERVER_PID="+strconv.Itoa(s.pid()),
		"BENCH_OFFLINE_EDITS="+strconv.Itoa(b.cfg.offline),
		"BENCH_COLD_EMAIL="+owner.Email, "BENCH_COLD_PASSWORD="+owner.Password,
		"BENCH_COLD_WORKSPACE="+owner.Workspace, "BENCH_COLD_RECORDS="+strconv.Itoa(b.cfg.cold))
	if err != nil {
		return err
	}
	if out == nil {
		return errors.New("node bench/node/clientdb-bench.ts printed no result")
	}
	// A part asked to do nothing (-offline 0, -cold 0) prints no figure: a zero would read as a target met.
	if b.cfg.cold > 0 {
		b.res.add(coldName, out["cold_sync_seconds"], "s", below(3, "< 3 s, issue 17"),
			fmt.Sprintf("a fresh clientdb device (its own Node process) signs in to a workspace of %d records (half tasks, half assets) and syncs it: time from starting the sync client until idle", b.cfg.cold))
		b.res.add(coldName+"_cpu_device", out["cold_sync_cpu_device"], "s", nil, "context: CPU time of the fresh device's process during the cold sync")
		b.res.add(coldName+"_cpu_server", out["cold_sync_cpu_server"], "s", nil, "context: CPU time of the server during the cold sync")
		b.res.add(coldName+"_wire", wire.Seconds(), "s", nil, "baseline: the same snapshot pulled over the socket by a Go client that only parses the pages")
	}
	if b.cfg.offline == 0 {
		return nil
	}
	b.res.add(offlineName, out["offline_seconds"], "s", below(2, "< 2 s"),
		fmt.Sprintf("device A (clientdb, fake-indexeddb, its own Node process) makes %d task creations offline and goes online; time until device B (another process, live on the workspace) has applied them all", b.cfg.offline))
	b.res.add(offlineName+"_write", out["offline_write_seconds"], "s", nil, "context: the time A took to make the edits offline (db.batch of 1000 creates per transaction)")
	b.res.add(offlineName+"_cpu_a", out["offline_cpu_a"], "s", nil, "context: CPU time of device A's process between going online and B having everything")
	b.res.add(offlineName+"_cpu_b", out["offline_cpu_b"], "s", nil, "context: CPU time of device B's process over the same interval")
	b.res.add(offlineName+"_cpu_server", out["offline_cpu_server"], "s", nil, "context: CPU time of the server over the same interval")
	b.res.add(offlineName+"_store_floor_a", out["offline_store_floor_a"], "s", nil, "context: the IndexedDB work alone of A's part (read each push from the outbox, delete it when acknowledged, read its records and write them back confirmed), on a copy of A's rows in the same store, with no sync around it (bench/node/store-floor.ts)")
	b.res.add(offlineName+"_store_floor_b", out["offline_store_floor_b"], "s", nil, "context: the IndexedDB work alone of B's part (write the rows it holds, 500 per transaction), on a copy of them")
	b.res.add(offlineName+"_store_floor_b_compact", out["offline_store_floor_b_compact_ratio"], "ratio", nil, "context: B's rows written in the shape a compact record state would store (a record written once names its stamp and author once), over the same rows as stored, lower of two writes each, alternated (bench/node/store-floor.ts)")

	// The in-memory peer of issue 17, in the same run: Yjs with its own WebSocket server.
	yjs, err := b.nodeResult(ctx, "bench/node/yjs-bench.ts", "BENCH_OFFLINE_EDITS="+strconv.Itoa(b.cfg.offline))
	if err != nil {
		return err
	}
	if yjs == nil {
		return errors.New("node bench/node/yjs-bench.ts printed no result")
	}
	b.res.add("peer_yjs_"+strconv.Itoa(b.cfg.offline/1000)+"k", yjs["peer_yjs_10k"], "s", nil,
		"baseline: Yjs (y-websocket 2 server in its own process, in memory, no database): the same records made offline in one transaction on A, until B has them all")
	b.res.add(offlineName+"_vs_yjs", out["offline_seconds"]/yjs["peer_yjs_10k"], "ratio", below(1.0001, "<= 1 (at most the peer's time), issue 17"),
		offlineName+" / peer_yjs of the same run")
	b.res.add("peer_yjs_edit_p50", yjs["peer_yjs_edit_p50"], "ms", nil, "baseline: one field edit on A until B sees it through the Yjs server, median")
	b.res.add("peer_yjs_edit_p99", yjs["peer_yjs_edit_p99"], "ms", nil, "baseline: the same, 99th percentile")
	return nil
}

// nodeResult runs a Node benchmark script (through tsx, in the repository) with env added, passes
// its log lines on, and returns the JSON of its `RESULT {...}` line (nil when it printed none).
func (b *bench) nodeResult(ctx context.Context, script string, env ...string) (map[string]float64, error) {
	nodeCtx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(nodeCtx, filepath.Join(b.cfg.repo, "node_modules/.bin/tsx"), script)
	cmd.Dir = b.cfg.repo
	cmd.Env = append(os.Environ(), env...)
	// tsx runs the script in a child of its own, which may start more (the Yjs server): on a timeout
	// or an interrupt the whole process group goes, or its open stdout would keep this reading.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var out map[string]float64
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "RESULT "); ok {
			if err := json.Unmarshal([]byte(rest), &out); err != nil {
				return nil, fmt.Errorf("read the result of %s: %w", script, err)
			}
		} else {
			fmt.Fprintln(os.Stderr, sc.Text())
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("node %s: %w", script, err)
	}
	return out, nil
}

// micro runs the Go microbenchmarks of the sync engine (they use TEST_DATABASE_URL too).
func (b *bench) micro(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", b.cfg.microFilter, "-benchmem", "./sync/...")
	cmd.Dir = b.cfg.repo
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	b.res.Micro = parseGoBench(stdout, prefixed{os.Stdout})
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("go test -bench: %w", err)
	}
	if len(b.res.Micro) == 0 {
		return errors.New("go test -bench printed no benchmark")
	}
	// Reading a push: FastPush against the general way, measured in the same run.
	general, fast := microNsPerOp(b.res.Micro, "BenchmarkReadPush/general"), microNsPerOp(b.res.Micro, "BenchmarkReadPush/fast")
	if general > 0 && fast > 0 {
		b.res.add("read_push_fast_vs_general", fast/general, "ratio", nil,
			"context: time to read a push of 500 asset creations with psync.FastPush / with DecodeMessage and ParsePush (BenchmarkReadPush)")
	}
	return nil
}

// microNsPerOp is the ns/op of the named Go benchmark (its name without the -GOMAXPROCS suffix),
// or 0 when it did not run.
func microNsPerOp(ms []micro, name string) float64 {
	for _, m := range ms {
		if base, _, _ := strings.Cut(m.Name, "-"); base == name {
			return m.Metrics["ns/op"]
		}
	}
	return 0
}

// prefixed passes go test output through, indented, so that BENCH lines stand out.
type prefixed struct{ w io.Writer }

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := p.w.Write(append([]byte("  "), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// restingRSS waits until the Go runtime of the server has run its periodic GC (2 minutes after
// the last GC, which ran at start when nothing allocated much since) and returned the freed
// memory, and reads the RSS then: it polls from 110 s after start for a drop of at least 16 MB
// below before, and stops waiting 170 s after start (returning the RSS of that time).
func restingRSS(pid int, startedAt time.Time, before float64) (float64, error) {
	time.Sleep(time.Until(startedAt.Add(110 * time.Second)))
	for {
		rss, err := rssMB(pid)
		if err != nil {
			return 0, err
		}
		if rss < before-16 {
			time.Sleep(3 * time.Second)
			return rssMB(pid)
		}
		if time.Since(startedAt) > 170*time.Second {
			logf("the server's RSS did not drop after its periodic GC: %.1f MB", rss)
			return rss, nil
		}
		time.Sleep(time.Second)
	}
}
