package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"patrimonio/server/store"
)

// Kind is where a scenario's server runs and what happens to it.
type Kind string

// The kinds of scenario.
const (
	// The server in this process (server/app) on a SQLite file; restarted gracefully.
	KindSQLite Kind = "sqlite"
	// The server in this process on Postgres; restarted gracefully.
	KindPostgres Kind = "postgres"
	// The server binary on a SQLite file, killed with SIGKILL and started again on it.
	KindSQLiteBinary Kind = "sqlite-binary"
	// The server binary on Postgres, killed with SIGKILL and started again.
	KindPostgresBinary Kind = "postgres-binary"
	// The server in this process on a private Postgres cluster that is restarted under it.
	KindPostgresRestart Kind = "postgres-restart"
)

// KindOf is the kind of the scenario of a seed: most run on SQLite, a good share on Postgres, a
// share against the real binary (killed and restarted), a few with Postgres restarts.
func KindOf(seed uint64) Kind {
	switch r := rand.New(rand.NewPCG(seed, 1)).IntN(100); {
	case r < 55:
		return KindSQLite
	case r < 78:
		return KindPostgres
	case r < 88:
		return KindSQLiteBinary
	case r < 94:
		return KindPostgresBinary
	default:
		return KindPostgresRestart
	}
}

// Scenario is one seeded run: a server, 3 to 8 devices (each behind its own fault-injecting
// proxy) of users in two workspaces, a script of edits and faults, then healing, settling and the
// checks.
type Scenario struct {
	Seed uint64
	Kind Kind

	env    *Env
	stats  *Stats
	ledger *Ledger
	rng    *rand.Rand
	dir    string
	start  time.Time

	world    *World
	server   *Server
	database string
	dropDB   func() error
	db       *store.DB // the checks' own handle on the scenario's database
	cluster  *cluster

	clients []*Client
	proxies []*Proxy

	eventsMu sync.Mutex
	events   []string

	bg      sync.WaitGroup // server and database restarts in progress
	bgMu    sync.Mutex     // one restart at a time
	bgErr   error
	settled int // settle polls it took
}

// Run runs the scenario of seed and returns nil when every check passed, else an error that says
// what failed (with the seed and the command that replays it).
// It also returns the scenario's event log.
func Run(env *Env, seed uint64, stats *Stats) (string, error) {
	sc := &Scenario{Seed: seed, Kind: KindOf(seed), env: env, stats: stats, ledger: newLedger(),
		rng: rand.New(rand.NewPCG(seed, 2)), start: time.Now()}
	err := sc.run()
	if err == nil {
		return sc.Events(), nil
	}
	var serverLog string
	if sc.server != nil && sc.server.binary {
		log := sc.server.Log()
		serverLog = "\nthe server binary's log (end):\n" + log[max(0, len(log)-3000):]
	}
	return sc.Events(), fmt.Errorf("SEED=%d (%s, %d devices): %w\nreplay: go test ./sync/sim -run 'TestSimulation$' -seed=%d -v\nlast events:\n%s%s",
		seed, sc.Kind, len(sc.clients), err, seed, sc.lastEvents(80), serverLog)
}

func (sc *Scenario) event(format string, args ...any) {
	sc.eventsMu.Lock()
	defer sc.eventsMu.Unlock()
	sc.events = append(sc.events, fmt.Sprintf("%6.1fms ", float64(time.Since(sc.start).Microseconds())/1000)+fmt.Sprintf(format, args...))
}

func (sc *Scenario) lastEvents(n int) string {
	sc.eventsMu.Lock()
	defer sc.eventsMu.Unlock()
	from := max(0, len(sc.events)-n)
	return "  " + strings.Join(sc.events[from:], "\n  ")
}

// Events is the whole event log.
func (sc *Scenario) Events() string { return sc.lastEvents(1 << 30) }

func (sc *Scenario) run() (err error) {
	if err := sc.setUp(); err != nil {
		sc.tearDown()
		return fmt.Errorf("set up: %w", err)
	}
	defer func() {
		if terr := sc.tearDown(); terr != nil && err == nil {
			err = fmt.Errorf("tear down: %w", terr)
		}
	}()
	sc.event("set up")
	sc.script()
	sc.event("script done")
	sc.bg.Wait()
	if sc.bgErr != nil {
		return sc.bgErr
	}
	if err := sc.heal(); err != nil {
		return err
	}
	// Stop the devices and the server: the checks read the database and the replicas at rest.
	for _, c := range sc.clients {
		c.Stop()
	}
	if err := sc.server.Stop(); err != nil {
		return fmt.Errorf("stop the server: %w", err)
	}
	sc.event("stopped")
	err = sc.check()
	sc.event("checked")
	return err
}

func (sc *Scenario) setUp() error {
	sc.stats.add(&sc.stats.Scenarios, 1)
	dir, err := os.MkdirTemp(sc.env.Dir, fmt.Sprintf("seed-%d-", sc.Seed))
	if err != nil {
		return err
	}
	sc.dir = dir
	base := "sqlite"
	binary := sc.Kind == KindSQLiteBinary || sc.Kind == KindPostgresBinary
	switch sc.Kind {
	case KindPostgres, KindPostgresBinary:
		if base, err = sc.env.PostgresBase(); err != nil {
			return err
		}
	case KindPostgresRestart:
		c, err := sc.env.RestartCluster()
		if err != nil {
			return err
		}
		sc.env.restartMu.Lock()
		sc.cluster = c
		base = c.URL()
	}
	dep, err := sc.env.Deploy(base, binary, dir)
	if dep != nil {
		sc.world, sc.server, sc.database, sc.dropDB, sc.db = dep.World, dep.Server, dep.Database, dep.drop, dep.DB
	}
	if err != nil {
		return err
	}

	// The devices: at least one of a user in A only, one in B only, one in both.
	ana, bruno, carla, dario := sc.world.Users[0], sc.world.Users[1], sc.world.Users[2], sc.world.Users[3]
	users := []*User{ana, bruno, carla}
	for n := 3 + sc.rng.IntN(6); len(users) < n; {
		users = append(users, []*User{ana, bruno, carla, carla, dario}[sc.rng.IntN(5)])
	}
	sc.rng.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
	for i, u := range users {
		name := fmt.Sprintf("d%d-%s", i+1, u.Name)
		var mine, foreign []string
		for _, w := range []string{sc.world.A, sc.world.B} {
			if u.Member(w) {
				mine = append(mine, w)
			} else {
				foreign = append(foreign, w)
			}
		}
		p, err := NewProxy(name, sc.Seed*131+uint64(i), sc.server.URL, sc.stats)
		if err != nil {
			return err
		}
		sc.proxies = append(sc.proxies, p)
		skew := time.Duration(sc.rng.Int64N(int64(3*time.Minute))) - 90*time.Second
		if sc.rng.IntN(12) == 0 {
			skew = 10*time.Minute + time.Duration(sc.rng.Int64N(int64(2*time.Hour))) // far ahead: re-stamped
		}
		c := newClient(name, u, mine, foreign, p, sc.ledger, sc.stats, skew, sc.Seed*977+uint64(i))
		c.databaseRestarts = sc.Kind == KindPostgresRestart
		sc.clients = append(sc.clients, c)
		sc.stats.add(&sc.stats.Clients, 1)
		sc.event("%s: client %s, user %s, workspaces %v, clock skew %v", name, c.ClientID(), u.Name, short(mine), skew.Round(time.Millisecond))
	}
	sc.event("server %s on %s", sc.Kind, sc.database)
	return nil
}

func short(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id[:8]
	}
	return out
}

func (sc *Scenario) tearDown() error {
	for _, c := range sc.clients {
		c.Stop()
	}
	for _, p := range sc.proxies {
		p.Close()
	}
	var errs []error
	if sc.server != nil {
		if err := sc.server.Stop(); err != nil {
			errs = append(errs, err)
		}
	}
	if sc.db != nil {
		sc.db.Close()
	}
	if sc.dropDB != nil {
		if err := sc.dropDB(); err != nil {
			errs = append(errs, err)
		}
	}
	if sc.cluster != nil {
		sc.env.restartMu.Unlock()
		sc.cluster = nil
	}
	if sc.dir != "" {
		os.RemoveAll(sc.dir)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%v", errs)
	}
	return nil
}

// script plays the scenario's random script: local edits on shared records, devices going
// offline (sometimes for long), crashing and reconnecting, network faults, probes of foreign
// workspaces, clock jumps, server restarts or kills, database restarts.
func (sc *Scenario) script() {
	rng := sc.rng
	n := len(sc.clients)
	backAt := make([]int, n)  // step at which an offline device comes back (0: online)
	crashAt := make([]int, n) // step at which a crashed device restarts (0: up)
	// Some devices start offline: their first sync comes late, after others' edits.
	for i, c := range sc.clients {
		if rng.IntN(4) == 0 {
			backAt[i] = 1 + rng.IntN(30)
			sc.event("%s starts offline until step %d", c.Name, backAt[i])
			continue
		}
		c.Start()
	}
	restarts := 0
	maxRestarts := map[Kind]int{KindSQLite: rng.IntN(2), KindPostgres: rng.IntN(2), KindSQLiteBinary: 1 + rng.IntN(3),
		KindPostgresBinary: 1 + rng.IntN(2), KindPostgresRestart: 1 + rng.IntN(2)}[sc.Kind]
	steps := 30 + rng.IntN(40)
	started := make([]bool, n)
	for i := range sc.clients {
		started[i] = backAt[i] == 0
	}
	for step := 1; step <= steps; step++ {
		time.Sleep(time.Duration(rng.IntN(8)) * time.Millisecond)
		for i, c := range sc.clients {
			if backAt[i] == step {
				backAt[i] = 0
				if !started[i] {
					started[i] = true
					c.Start()
				} else {
					c.SetOnline(true)
				}
				sc.event("%s back online", c.Name)
			}
			if crashAt[i] == step {
				crashAt[i] = 0
				c.Restart()
				sc.event("%s restarts after its crash", c.Name)
			}
		}
		i := rng.IntN(n)
		c, p := sc.clients[i], sc.proxies[i]
		switch roll := rng.IntN(100); {
		case roll < 55:
			what := c.Edit(rng)
			sc.event("%s: %s", c.Name, what)
		case roll < 61:
			if backAt[i] != 0 || !started[i] {
				continue
			}
			backAt[i] = step + 1 + rng.IntN(25)
			c.SetOnline(false)
			sc.stats.add(&sc.stats.Offline, 1)
			sc.event("%s goes offline until step %d", c.Name, backAt[i])
		case roll < 64:
			if crashAt[i] != 0 {
				continue
			}
			crashAt[i] = step + 1 + rng.IntN(10)
			c.Crash()
			sc.stats.add(&sc.stats.DeviceCrashes, 1)
			sc.event("%s crashes (back at step %d)", c.Name, crashAt[i])
		case roll < 68:
			c.Reconnect()
			sc.stats.add(&sc.stats.DeviceReconnects, 1)
			sc.event("%s reconnects", c.Name)
		case roll < 72:
			cut := p.CutAll()
			sc.event("proxy of %s cuts %d connections", c.Name, cut)
		case roll < 75:
			d := time.Duration(2+rng.IntN(30)) * time.Millisecond
			holes := p.BlackHole(d)
			sc.stats.add(&sc.stats.BlackHoles, int64(holes))
			sc.event("proxy of %s: %d connections into a black hole, cut in %v", c.Name, holes, d)
		case roll < 80:
			p.ArmAckCut()
			sc.event("proxy of %s: the next ack is dropped and its connection cut", c.Name)
		case roll < 86:
			f := Faults{}
			if rng.IntN(2) == 0 {
				f.MaxDelay = time.Duration(rng.IntN(25)) * time.Millisecond
			}
			if rng.IntN(2) == 0 {
				f.DupToServer = rng.Float64() * 0.5
			}
			if rng.IntN(2) == 0 {
				f.DupToClient = rng.Float64() * 0.5
			}
			p.SetFaults(f)
			sc.event("proxy of %s: faults %+v", c.Name, f)
		case roll < 89:
			if c.SmallPull(rng) {
				sc.stats.add(&sc.stats.SmallPulls, 1)
				sc.event("%s pulls with a small limit", c.Name)
			}
		case roll < 93:
			sc.probe(c, rng)
		case roll < 94:
			skew := time.Duration(rng.Int64N(int64(4*time.Minute))) - 2*time.Minute
			c.SetSkew(skew)
			sc.stats.add(&sc.stats.ClockJumps, 1)
			sc.event("%s: the wall clock jumps to a skew of %v", c.Name, skew.Round(time.Millisecond))
		default:
			if restarts < maxRestarts {
				restarts++
				sc.restartInBackground(rng.IntN(30))
			}
		}
	}
}

func (sc *Scenario) probe(c *Client, rng *rand.Rand) {
	if len(c.foreign) == 0 {
		return
	}
	w := c.foreign[rng.IntN(len(c.foreign))]
	switch rng.IntN(3) {
	case 0:
		c.ProbeHello(w)
		c.Reconnect()
		sc.event("%s asks for foreign workspace %s in its next hello", c.Name, w[:8])
	case 1:
		if c.ProbePull(w) {
			sc.stats.add(&sc.stats.Probes, 1)
			sc.event("%s pulls foreign workspace %s", c.Name, w[:8])
		}
	default:
		c.ProbeWrite(rng)
		sc.event("%s writes to a foreign workspace", c.Name)
	}
}

// restartInBackground restarts the server (gracefully in this process, with SIGKILL for the
// binary) or the database, while the script goes on.
func (sc *Scenario) restartInBackground(downMillis int) {
	sc.bg.Add(1)
	go func() {
		defer sc.bg.Done()
		sc.bgMu.Lock()
		defer sc.bgMu.Unlock()
		var err error
		switch sc.Kind {
		case KindPostgresRestart:
			sc.event("database restart begins")
			err = sc.cluster.Restart()
			sc.stats.add(&sc.stats.DatabaseRestarts, 1)
			sc.event("database restarted (%v)", err)
		case KindSQLiteBinary, KindPostgresBinary:
			sc.event("server killed (SIGKILL)")
			if err = sc.server.Kill(); err == nil {
				time.Sleep(time.Duration(downMillis) * time.Millisecond)
				err = sc.server.Start()
			}
			sc.stats.add(&sc.stats.ServerKills, 1)
			sc.event("server started again at %s (%v)", sc.server.URL(), err)
		default:
			sc.event("server stops (graceful restart)")
			if err = sc.server.Stop(); err == nil {
				time.Sleep(time.Duration(downMillis) * time.Millisecond)
				err = sc.server.Start()
			}
			sc.stats.add(&sc.stats.ServerRestarts, 1)
			sc.event("server started again at %s (%v)", sc.server.URL(), err)
		}
		if err != nil && sc.bgErr == nil {
			sc.bgErr = fmt.Errorf("restart: %w", err)
		}
	}()
}

// settleAttempts bounds the polls (10 ms apart) for the scenario to settle after healing.
const settleAttempts = 3000

// heal turns every fault off, brings every device online and waits until they have all settled:
// connected, outbox empty, every cursor at the server's head, twice in a row with the same heads.
func (sc *Scenario) heal() error {
	for _, p := range sc.proxies {
		p.Heal()
	}
	for _, c := range sc.clients {
		c.Restart()
		c.SetOnline(true)
		c.Start()
	}
	sc.event("healed: all faults off, every device online")
	var why []string
	var prev map[string]int64
	for attempt := 1; attempt <= settleAttempts; attempt++ {
		heads, err := sc.heads()
		why = why[:0]
		if err != nil {
			why = append(why, "read heads: "+err.Error())
		} else {
			for _, c := range sc.clients {
				if ok, reason := c.Status(heads); !ok {
					why = append(why, c.Name+": "+reason+"\n    its last messages:\n      "+sc.ledger.Trace(c.Name))
				}
			}
		}
		if len(why) == 0 && prev != nil && equalHeads(prev, heads) {
			sc.settled = attempt
			sc.event("settled after %d polls; heads %v", attempt, heads)
			return nil
		}
		if len(why) == 0 {
			prev = heads
		} else {
			prev = nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("did not settle after %d polls after healing:\n  %s", settleAttempts, strings.Join(why, "\n  "))
}

func equalHeads(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// heads reads the sequence of A and B.
func (sc *Scenario) heads() (map[string]int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	heads := map[string]int64{sc.world.A: 0, sc.world.B: 0}
	rows, err := sc.db.Query(ctx, `SELECT workspace_id, seq FROM sync_workspaces`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var w string
		var seq int64
		if err := rows.Scan(&w, &seq); err != nil {
			return nil, err
		}
		heads[w] = seq
	}
	return heads, rows.Err()
}
