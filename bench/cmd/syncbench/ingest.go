package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	psync "patrimonio/sync"
	"patrimonio/sync/device"
)

// ingestConfig: `clients` devices, each pushing `batches` pushes of `batchSize` asset creations
// into its user's workspace, at most `window` pushes in flight per device (the device client's
// push window, clientdb/src/client.ts), after `warmup` pushes each that are not counted.
type ingestConfig struct {
	clients, batches, batchSize, window, warmup int
	// follow: each device syncs its workspace live, as a real device does, so the server also
	// sends every change back to it (the device reads them and pulls when a page says hasMore).
	follow bool
}

// ingestResult is one measured run: mutations acknowledged as applied, over the time from the
// first push to the last ack.
type ingestResult struct {
	mutations int
	elapsed   time.Duration
	// CPU seconds used meanwhile by the server, Postgres and the bench (its devices or writers).
	cpuServer, cpuPostgres, cpuBench float64
}

// perMutation is a CPU time in microseconds per mutation.
func (r ingestResult) perMutation(seconds float64) float64 {
	return seconds * 1e6 / float64(r.mutations)
}

func (r ingestResult) rate() float64 { return float64(r.mutations) / r.elapsed.Seconds() }

// ingestClient is one pushing device and its prepared pushes.
type ingestClient struct {
	d         *benchDevice
	workspace string
	pushes    [][]byte
	sizes     []int
	window    chan struct{}
	acked     chan int // applied count of each ack (one ack message per push without rejects)
	failed    chan error
	done      chan struct{}
}

// runIngest measures durable mutations per second through the socket: the rate at which
// mutations are acknowledged (the ack leaves after the commit).
// started, when set, is called as the clock starts (after the warm-up); it returns a function
// called once every ack is in.
func runIngest(s *serverProc, users []*user, cfg ingestConfig, pg postgresCPU, started func() func()) (ingestResult, error) {
	if len(users) < cfg.clients {
		return ingestResult{}, fmt.Errorf("ingest needs %d users", cfg.clients)
	}
	clients := make([]*ingestClient, cfg.clients)
	for i := range clients {
		u := users[i]
		d, err := dialDevice(s, u.Cookie)
		if err != nil {
			return ingestResult{}, err
		}
		defer d.close()
		var fresh []string
		if cfg.follow {
			fresh = append(fresh, u.Workspace)
		}
		if err := d.hello(fresh...); err != nil {
			return ingestResult{}, err
		}
		if cfg.follow {
			if _, err := d.catchUp(u.Workspace); err != nil {
				return ingestResult{}, err
			}
		}
		c := &ingestClient{d: d, workspace: u.Workspace, window: make(chan struct{}, cfg.window),
			acked: make(chan int, cfg.warmup+cfg.batches), failed: make(chan error, 1), done: make(chan struct{})}
		// Every push is encoded before the clock starts: the bench's own JSON work stays out of
		// the measurement.
		for b := range cfg.warmup + cfg.batches {
			muts := make([]device.Mutation, cfg.batchSize)
			for k := range muts {
				muts[k] = d.create(u.Workspace, "assets", assetFields(b*cfg.batchSize+k))
			}
			c.pushes = append(c.pushes, device.Push(muts))
			c.sizes = append(c.sizes, len(muts))
		}
		clients[i] = c
		go c.readLoop()
	}
	defer func() {
		for _, c := range clients {
			c.d.close()
		}
	}()

	// Warm-up (connections of the server's pool, prepared statements, caches): not counted.
	for _, c := range clients {
		for p := range cfg.warmup {
			if err := c.d.write(c.pushes[p]); err != nil {
				return ingestResult{}, err
			}
			if err := c.waitAck(c.sizes[p]); err != nil {
				return ingestResult{}, fmt.Errorf("warm-up: %w", err)
			}
		}
	}

	finished := func() {}
	if started != nil {
		finished = started()
	}
	meter := startCPU(s.pid(), pg)
	start := time.Now()
	ends := make([]time.Time, len(clients))
	errs := make(chan error, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- c.pushAll(cfg.warmup, &ends[i])
		}()
	}
	wg.Wait()
	cpuServer, cpuPG, cpuSelf := meter.stop()
	finished()
	close(errs)
	for err := range errs {
		if err != nil {
			return ingestResult{}, err
		}
	}
	end := start
	for _, t := range ends {
		if t.After(end) {
			end = t
		}
	}
	return ingestResult{mutations: cfg.clients * cfg.batches * cfg.batchSize, elapsed: end.Sub(start),
		cpuServer: cpuServer, cpuPostgres: cpuPG, cpuBench: cpuSelf}, nil
}

// pushAll sends the pushes after the warm-up, at most `window` unanswered, and waits for every ack.
func (c *ingestClient) pushAll(from int, end *time.Time) error {
	collected := make(chan error, 1)
	go func() {
		var err error
		for p := from; p < len(c.pushes); p++ {
			if e := c.waitAck(c.sizes[p]); e != nil && err == nil {
				err = e
				break
			}
			<-c.window
		}
		*end = time.Now()
		collected <- err
	}()
	for p := from; p < len(c.pushes); p++ {
		select {
		case c.window <- struct{}{}:
		case err := <-collected:
			return err
		}
		if err := c.d.write(c.pushes[p]); err != nil {
			return err
		}
	}
	return <-collected
}

func (c *ingestClient) waitAck(want int) error {
	select {
	case n := <-c.acked:
		if n != want {
			return fmt.Errorf("a push of %d mutations got %d applied", want, n)
		}
		return nil
	case err := <-c.failed:
		return err
	case <-time.After(2 * time.Minute):
		return errors.New("no ack within 2 minutes")
	}
}

// readLoop takes acks and, when following, the changes sent back (pulling while hasMore).
func (c *ingestClient) readLoop() {
	for {
		typ, msg, err := c.d.read(0)
		if err != nil {
			select {
			case c.failed <- err:
			default:
			}
			return
		}
		switch typ {
		case "ack":
			acks, err := device.DecodeAcks(msg)
			if err != nil {
				c.failed <- err
				return
			}
			applied := 0
			for _, a := range acks {
				if a.Status == "applied" {
					applied++
				}
			}
			c.acked <- applied
		case "changes":
			cursor, hasMore, err := device.PageTail(msg)
			if err != nil {
				c.failed <- err
				return
			}
			if hasMore {
				if err := c.d.write(device.PullChanges(c.workspace, cursor, 0)); err != nil {
					c.failed <- err
					return
				}
			}
		}
	}
}

// prepareRawTable makes the table of the raw baseline: shaped like sync_records (same columns,
// keys and indexes) with the same foreign keys as sync_records has (read from the catalog: none
// since migration 0016, which dropped its key to workspaces; the baseline follows the table it
// stands for).
func prepareRawTable(ctx context.Context, dbURL string) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conrelid = 'sync_records'::regclass AND contype = 'f' ORDER BY conname`)
	if err != nil {
		return fmt.Errorf("prepare the raw table: read the foreign keys of sync_records: %w", err)
	}
	foreignKeys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("prepare the raw table: read the foreign keys of sync_records: %w", err)
	}
	statements := []string{
		`DROP TABLE IF EXISTS bench_raw_records`,
		`CREATE TABLE bench_raw_records (LIKE sync_records INCLUDING ALL)`,
	}
	for _, fk := range foreignKeys {
		statements = append(statements, `ALTER TABLE bench_raw_records ADD `+fk)
	}
	for _, q := range statements {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("prepare the raw table: %w", err)
		}
	}
	return nil
}

// runRawUpsert is the baseline: the same rows (the record states the server stores for the same
// asset creations) upserted straight into Postgres, by as many writers as ingest has clients,
// in batches of the same size, one transaction per batch (one INSERT ... ON CONFLICT DO UPDATE
// of batchSize rows), into a table shaped like sync_records (same columns, keys, indexes and
// foreign keys).
func runRawUpsert(ctx context.Context, dbURL string, workspaces []string, cfg ingestConfig, pg postgresCPU) (ingestResult, error) {
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return ingestResult{}, err
	}
	defer admin.Close(ctx)
	var before int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM bench_raw_records`).Scan(&before); err != nil {
		return ingestResult{}, err
	}
	columns := []string{"workspace_id", "collection", "record_id", "seq", "deleted", "conflicts", "state", "updated_at"}
	var sql strings.Builder
	sql.WriteString(`INSERT INTO bench_raw_records (` + strings.Join(columns, ", ") + `) VALUES `)
	for r := range cfg.batchSize {
		if r > 0 {
			sql.WriteByte(',')
		}
		sql.WriteByte('(')
		for c := range columns {
			if c > 0 {
				sql.WriteByte(',')
			}
			fmt.Fprintf(&sql, "$%d", r*len(columns)+c+1)
		}
		sql.WriteByte(')')
	}
	sql.WriteString(` ON CONFLICT (workspace_id, collection, record_id) DO UPDATE SET seq = excluded.seq,
		deleted = excluded.deleted, conflicts = excluded.conflicts, state = excluded.state, updated_at = excluded.updated_at`)
	query := sql.String()

	type writer struct {
		conn    *pgx.Conn
		batches [][]any
	}
	writers := make([]*writer, cfg.clients)
	for i := range writers {
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			return ingestResult{}, err
		}
		defer conn.Close(ctx)
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
		d := &device.Identity{ClientID: fmt.Sprintf("raw-writer-%d", i), Clock: clock}
		w := &writer{conn: conn}
		seq := int64(0)
		now := time.Now().UTC()
		for b := range cfg.warmup + cfg.batches {
			args := make([]any, 0, cfg.batchSize*len(columns))
			for k := range cfg.batchSize {
				m := d.Create(workspaces[i%len(workspaces)], "assets", assetFields(b*cfg.batchSize+k))
				st := psync.NewRecordState()
				if _, err := st.Apply(psync.Mutation{Op: psync.OpPut, Stamp: m.Stamp, Author: d.ClientID, Fields: m.Fields}); err != nil {
					return ingestResult{}, err
				}
				state, err := json.Marshal(st)
				if err != nil {
					return ingestResult{}, err
				}
				seq++
				args = append(args, m.Workspace, m.Collection, m.Record, seq, false, int64(0), string(state), now)
			}
			w.batches = append(w.batches, args)
		}
		writers[i] = w
	}
	for _, w := range writers {
		for b := range cfg.warmup {
			if _, err := w.conn.Exec(ctx, query, w.batches[b]...); err != nil {
				return ingestResult{}, fmt.Errorf("raw upsert: %w", err)
			}
		}
	}
	meter := startCPU(0, pg)
	start := time.Now()
	errs := make(chan error, len(writers))
	for _, w := range writers {
		go func() {
			for b := cfg.warmup; b < len(w.batches); b++ {
				if _, err := w.conn.Exec(ctx, query, w.batches[b]...); err != nil {
					errs <- fmt.Errorf("raw upsert: %w", err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			return ingestResult{}, err
		}
	}
	elapsed := time.Since(start)
	_, cpuPG, cpuSelf := meter.stop()
	var n int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM bench_raw_records`).Scan(&n); err != nil {
		return ingestResult{}, err
	}
	if want := cfg.clients * (cfg.warmup + cfg.batches) * cfg.batchSize; n-before != want {
		return ingestResult{}, fmt.Errorf("the raw upsert added %d rows, want %d", n-before, want)
	}
	return ingestResult{mutations: cfg.clients * cfg.batches * cfg.batchSize, elapsed: elapsed, cpuPostgres: cpuPG, cpuBench: cpuSelf}, nil
}
