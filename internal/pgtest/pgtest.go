// Package pgtest gives tests a real, fresh PostgreSQL database.
//
// When TEST_DATABASE_URL is set (a postgres:// URL of a role that may create databases), every
// call to URL creates a new database there and drops it when the test ends. When it is unset, the
// first call starts a throwaway cluster (initdb into a temporary directory, postgres on a free
// port of 127.0.0.1 with its unix socket in that directory) that Main stops when the tests end.
//
// Use it from a test package like this:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) { url := pgtest.URL(t); ... }
//
// The PostgreSQL binaries are found through PG_BINDIR, then `pg_config --bindir`, then initdb in
// PATH, then /usr/lib/postgresql/*/bin. As root, the cluster runs as the postgres user.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable that points the tests at an existing server.
const EnvURL = "TEST_DATABASE_URL"

// EnvBinDir overrides where the PostgreSQL binaries are.
const EnvBinDir = "PG_BINDIR"

// Cluster is a throwaway PostgreSQL server owned by this process.
type Cluster struct {
	dir    string // temporary directory: data/, the socket, postgres.log
	binDir string
	port   int
	cred   *syscall.Credential // nil when not running as root

	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
}

// URL is the address of the cluster's "postgres" database, as the superuser "postgres".
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// StartCluster creates and starts a throwaway cluster. Stop it with Stop.
func StartCluster() (*Cluster, error) {
	binDir, err := findBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: make temp dir: %w", err)
	}
	c := &Cluster{dir: dir, binDir: binDir}
	if err := c.prepareOwner(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.initdb(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The free port is picked before postgres binds it; another process may take it in between,
	// so try a few ports.
	for attempt := 1; ; attempt++ {
		err = c.start()
		if err == nil {
			return c, nil
		}
		if attempt == 5 || !strings.Contains(c.log(), "could not bind") {
			c.Stop()
			return nil, err
		}
	}
}

func (c *Cluster) prepareOwner() error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("pgtest: running as root needs a postgres user to run the cluster: %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	if err := os.Chown(c.dir, int(uid), int(gid)); err != nil {
		return fmt.Errorf("pgtest: chown %s to postgres: %w", c.dir, err)
	}
	return nil
}

// command prepares one of the PostgreSQL programs, run as the postgres user when we are root.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.binDir, name), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C", "PGTZ=UTC")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	return cmd
}

func (c *Cluster) initdb() error {
	cmd := c.command("initdb", "-D", filepath.Join(c.dir, "data"), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	return nil
}

// start runs postgres as a child process. If this process dies without stopping it, the kernel
// sends postgres SIGINT (a fast shutdown), so an interrupted test run leaves no server behind.
func (c *Cluster) start() error {
	port, err := freePort()
	if err != nil {
		return err
	}
	return c.startOn(port)
}

// startOn runs postgres on the given port (see start).
func (c *Cluster) startOn(port int) error {
	c.port = port
	logFile, err := os.OpenFile(filepath.Join(c.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: open log: %w", err)
	}
	defer logFile.Close()
	cmd := c.command("postgres", "-D", filepath.Join(c.dir, "data"),
		"-p", strconv.Itoa(port), "-k", c.dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "dynamic_shared_memory_type=mmap",
		"-c", "log_min_messages=warning", "-c", "timezone=UTC")
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr.Pdeathsig = syscall.SIGINT
	cmd.SysProcAttr.Setpgid = true // Ctrl-C in a terminal goes to us, and we stop postgres ourselves
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: start postgres: %w", err)
	}
	c.cmd = cmd
	c.exited = make(chan struct{})
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c.waitReady()
}

// waitReady polls until postgres accepts connections, postgres exits, or a minute passes.
func (c *Cluster) waitReady() error {
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case <-c.exited:
			return fmt.Errorf("pgtest: postgres exited at start (%v):\n%s", c.waitErr, c.log())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.URL())
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres not ready after a minute: %v\n%s", err, c.log())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func (c *Cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
	return string(b)
}

// Stop shuts the cluster down (fast shutdown: open sessions are ended) and removes its directory.
func (c *Cluster) Stop() error {
	err := c.shutdown()
	if rerr := os.RemoveAll(c.dir); rerr != nil && err == nil {
		err = fmt.Errorf("pgtest: remove %s: %w", c.dir, rerr)
	}
	return err
}

// shutdown stops postgres with a fast shutdown (open sessions are ended, committed work is
// written out), killing it if it has not stopped after 30 seconds. The data directory stays.
func (c *Cluster) shutdown() error {
	if c.cmd == nil || c.cmd.Process == nil {
		return nil
	}
	select {
	case <-c.exited:
		return nil
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
		return nil
	case <-time.After(30 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
		return errors.New("pgtest: postgres did not stop within 30s and was killed")
	}
}

// Restart restarts the cluster's server the way a database restart looks to its clients: a fast
// shutdown (every open connection is ended; committed transactions are kept), then postgres starts
// again on the same port with the same data, and Restart returns once it accepts connections. In
// between, new connections are refused. URL stays valid.
func (c *Cluster) Restart() error {
	if err := c.Down(); err != nil {
		return err
	}
	if err := c.Up(); err != nil {
		return fmt.Errorf("pgtest: restart: %w", err)
	}
	return nil
}

// Down stops the cluster's server (a fast shutdown) and keeps its data: until Up, connections to
// URL are refused, as when the database is down.
func (c *Cluster) Down() error { return c.shutdown() }

// Up starts the server again on the same port with the same data, once it accepts connections.
func (c *Cluster) Up() error { return c.startOn(c.port) }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func findBinDir() (string, error) {
	has := func(dir string) bool {
		st, err := os.Stat(filepath.Join(dir, "initdb"))
		return err == nil && !st.IsDir()
	}
	if dir := os.Getenv(EnvBinDir); dir != "" {
		if !has(dir) {
			return "", fmt.Errorf("pgtest: %s=%s has no initdb", EnvBinDir, dir)
		}
		return dir, nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); has(dir) {
			return dir, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if has(dir) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("pgtest: no PostgreSQL binaries found: set %s to a running server, or %s to the directory holding initdb and postgres", EnvURL, EnvBinDir)
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// The shared state of a test binary: at most one cluster, started on first use.
var (
	mu          sync.Mutex
	mainRunning bool
	shared      *Cluster
	sharedErr   error
	sharedDone  bool
)

// Main runs the tests of a package and stops the throwaway cluster, if one was started, before
// exiting with the tests' exit code. Call it from TestMain.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit, for a TestMain that has more to clean up: it runs the tests, stops
// the throwaway cluster and returns the exit code.
func Run(m *testing.M) int {
	mu.Lock()
	mainRunning = true
	mu.Unlock()

	code := m.Run()

	mu.Lock()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
		shared = nil
	}
	mainRunning = false
	mu.Unlock()
	return code
}

// baseURL is TEST_DATABASE_URL, or the URL of this process's throwaway cluster.
func baseURL() (string, error) {
	if u := os.Getenv(EnvURL); u != "" {
		return u, nil
	}
	mu.Lock()
	defer mu.Unlock()
	if !mainRunning {
		return "", errors.New("pgtest: call pgtest.Main(m) (or pgtest.Run) from TestMain so the throwaway cluster is stopped")
	}
	if !sharedDone {
		shared, sharedErr = StartCluster()
		sharedDone = true
	}
	if sharedErr != nil {
		return "", sharedErr
	}
	return shared.URL(), nil
}

// URL creates a fresh, empty database for the test and returns its URL. The database is dropped
// when the test ends (after the test's own cleanups, so close pools in t.Cleanup).
func URL(t testing.TB) string {
	t.Helper()
	base, err := baseURL()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("pgtest: %s must be a postgres:// URL", EnvURL)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "pgtest_" + hex.EncodeToString(b[:])

	if err := adminExec(base, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		if err := adminExec(base, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

func adminExec(base, sql string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
