package sim_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/server/account"
	"patrimonio/sync/sim"
)

var (
	seedFlag   = flag.Uint64("seed", 0, "replay the scenario of this seed only")
	seedsFlag  = flag.Int("seeds", 200, "number of scenarios (seeds seedbase, seedbase+1, ...)")
	baseFlag   = flag.Uint64("seedbase", 0, "first seed (0: a new one each run, printed in the summary)")
	workers    = flag.Int("workers", 4, "scenarios run at once")
	eventsFlag = flag.Bool("events", false, "print every scenario's event log")
	eachFlag   = flag.Bool("each", false, "print a line per scenario (its kind, its time)")
	kindFlag   = flag.String("kind", "", "run only the scenarios of this kind among the seeds (sqlite, postgres, sqlite-binary, postgres-binary, postgres-restart)")
)

var (
	envOnce sync.Once
	env     *sim.Env
	envErr  error
)

func TestMain(m *testing.M) {
	// Every scenario starts its own server (some several times), and each start of the accounts
	// service computes one password hash, as does every sign-up: with the production argon2id
	// parameters (64 MiB, 3 passes) those hashes would take most of the run's time. The servers in
	// this process hash cheaply; everything else is as in production (the binary keeps the
	// production parameters).
	account.DefaultPasswordParams = account.PasswordParams{Memory: 1024, Time: 1, Threads: 1}
	code := m.Run()
	if env != nil {
		if err := env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "sim:", err)
		}
	}
	os.Exit(code)
}

func theEnv(t *testing.T) *sim.Env {
	t.Helper()
	envOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			envErr = fmt.Errorf("find the module root: %w", err)
			return
		}
		root := filepath.Dir(strings.TrimSpace(string(out)))
		// TEST_DATABASE_URL (make test sets it through bin/pgtmp) for most Postgres scenarios; the
		// scenarios that restart Postgres use a private cluster (and the others another one when it
		// is unset).
		env, envErr = sim.NewEnv(root, os.Getenv("TEST_DATABASE_URL"))
	})
	if envErr != nil {
		t.Fatal(envErr)
	}
	return env
}

// TestSimulation runs the seeded simulation: -seeds scenarios (200 by default) from -seedbase, or
// the one of -seed. Each is replayable from its seed (the script, the devices, the faults and the
// kind of server follow from it; the timing of real sockets and goroutines does not).
func TestSimulation(t *testing.T) {
	e := theEnv(t)
	var seeds []uint64
	if *seedFlag != 0 {
		seeds = []uint64{*seedFlag}
	} else {
		base := *baseFlag
		if base == 0 {
			base = uint64(time.Now().UnixNano()%1_000_000_000) + 1
		}
		for s := base; len(seeds) < *seedsFlag; s++ {
			if *kindFlag == "" || sim.KindOf(s) == sim.Kind(*kindFlag) {
				seeds = append(seeds, s)
			}
		}
	}
	if v := os.Getenv("SIM_SEEDS"); v != "" && *seedFlag == 0 {
		t.Logf("SIM_SEEDS=%s is ignored: use -seeds", v)
	}
	stats := &sim.Stats{}
	kinds := map[sim.Kind]int{}
	for _, s := range seeds {
		kinds[sim.KindOf(s)]++
	}
	start := time.Now()
	jobs := make(chan uint64)
	var wg sync.WaitGroup
	var failedMu sync.Mutex
	var failed []uint64
	for range max(1, *workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				began := time.Now()
				events, err := sim.Run(e, seed, stats)
				if *eachFlag {
					t.Logf("seed %d (%s): %v, ok %v", seed, sim.KindOf(seed), time.Since(began).Round(time.Millisecond), err == nil)
				}
				if *eventsFlag {
					t.Logf("events of seed %d:\n%s", seed, events)
				}
				if err != nil {
					t.Error(err)
					failedMu.Lock()
					failed = append(failed, seed)
					failedMu.Unlock()
				}
			}
		}()
	}
	for _, s := range seeds {
		jobs <- s
	}
	close(jobs)
	wg.Wait()
	summary := fmt.Sprintf("SIM: seeds %d..%d (%v) in %v, %d failed %v; %s", seeds[0], seeds[len(seeds)-1], kinds,
		time.Since(start).Round(time.Millisecond), len(failed), failed, stats.Summary())
	fmt.Println(summary)
}
