package sim

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"patrimonio/internal/pgtest"
	"patrimonio/server/app"
	"patrimonio/server/config"
)

// Env is what the scenarios of one test process share: the secret key every server runs with,
// the server binary (built once), the Postgres servers and the template databases holding the
// signed-up users and their workspaces.
type Env struct {
	// Root is the module root (where go.mod is); Dir a temporary directory owned by the Env.
	Root, Dir string
	// PostgresURL is a Postgres server on which scenarios create their databases
	// (TEST_DATABASE_URL); "" means: on a private cluster.
	PostgresURL string
	secretKey   string

	binOnce sync.Once
	binPath string
	binErr  error

	// Private Postgres clusters: one for the scenarios' databases when PostgresURL is "", one
	// that scenarios restart (one scenario at a time: restartMu).
	sharedCluster  onceValue[*cluster]
	restartCluster onceValue[*cluster]
	restartMu      sync.Mutex

	worldMu   sync.Mutex
	worlds    map[string]*World // by database base: "sqlite" or a Postgres URL
	templates []string          // Postgres template databases to drop: "base\x00name"
}

// NewEnv prepares an Env; root is the module root.
func NewEnv(root, postgresURL string) (*Env, error) {
	dir, err := os.MkdirTemp("", "patrimonio-sim-")
	if err != nil {
		return nil, err
	}
	key := make([]byte, config.SecretKeyLen)
	_, _ = rand.Read(key)
	return &Env{Root: root, Dir: dir, PostgresURL: postgresURL, secretKey: base64.StdEncoding.EncodeToString(key), worlds: map[string]*World{}}, nil
}

// Close drops the template databases, stops the private cluster and removes the Env's directory.
func (e *Env) Close() error {
	var errs []error
	for _, t := range e.templates {
		base, name, _ := strings.Cut(t, "\x00")
		if err := adminExec(base, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`); err != nil {
			errs = append(errs, err)
		}
	}
	for _, c := range []*onceValue[*cluster]{&e.sharedCluster, &e.restartCluster} {
		if c.v != nil {
			errs = append(errs, c.v.Stop())
		}
	}
	errs = append(errs, os.RemoveAll(e.Dir))
	return errors.Join(errs...)
}

// Binary builds the server binary once per process.
func (e *Env) Binary() (string, error) {
	e.binOnce.Do(func() {
		e.binPath = filepath.Join(e.Dir, "patrimonio")
		cmd := exec.Command("go", "build", "-o", e.binPath, "./server/cmd/patrimonio")
		cmd.Dir = e.Root
		if out, err := cmd.CombinedOutput(); err != nil {
			e.binErr = fmt.Errorf("build the server binary: %v\n%s", err, out)
		}
	})
	return e.binPath, e.binErr
}

// onceValue is a value made once.
type onceValue[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (o *onceValue[T]) get(make func() (T, error)) (T, error) {
	o.once.Do(func() { o.v, o.err = make() })
	return o.v, o.err
}

// RestartCluster is the private Postgres cluster that scenarios restart, started once per
// process.
func (e *Env) RestartCluster() (*cluster, error) {
	return e.restartCluster.get(e.startCluster)
}

func (e *Env) startCluster() (*cluster, error) { return pgtest.StartCluster() }

// cluster is a throwaway Postgres cluster that can be restarted (pgtest's).
type cluster = pgtest.Cluster

func adminExec(base, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func randomName(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// withDatabase returns base (a postgres:// URL) pointing at database name.
func withDatabase(base, name string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// ---------------------------------------------------------------- servers

// Server is one Patrimonio server of a scenario: the real server, either in this process
// (server/app, as the binary runs it) or the real binary in its own process, on one database that
// outlives its restarts.
type Server struct {
	env      *Env
	binary   bool
	database string // DATABASE_URL
	dir      string // web dir, logs
	devMail  string // PATRIMONIO_DEV_OUTBOX ("" for none)

	mu  sync.Mutex
	url string // "" while down

	// in this process
	app    *app.Server
	cancel context.CancelFunc
	done   chan error

	// the binary
	cmd    *exec.Cmd
	exited chan struct{}
	port   int
	log    *bytes.Buffer
}

func newServer(env *Env, binary bool, database, dir string) *Server {
	return &Server{env: env, binary: binary, database: database, dir: dir}
}

// URL is the server's base URL, "" while it is down.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

func (s *Server) setURL(u string) {
	s.mu.Lock()
	s.url = u
	s.mu.Unlock()
}

// Start starts the server and returns once it serves.
func (s *Server) Start() error {
	if s.binary {
		return s.startBinary()
	}
	env := map[string]string{
		config.EnvAddr:        "127.0.0.1:0",
		config.EnvDatabaseURL: s.database,
		config.EnvWebDir:      s.dir,
		config.EnvDevOutbox:   s.devMail,
	}
	cfg, err := config.Load(func(k string) string { return env[k] }, nil)
	if err != nil {
		return err
	}
	cfg.SecretKey = s.env.secretKey
	a, err := app.Open(context.Background(), cfg, nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	s.app, s.cancel, s.done = a, cancel, done
	s.setURL(a.URL())
	return nil
}

// Stop stops the server gracefully (sockets are closed with "going away", queued pushes finish).
func (s *Server) Stop() error {
	s.setURL("")
	if s.binary {
		if s.cmd == nil {
			return nil
		}
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		<-s.exited
		s.cmd = nil
		return nil
	}
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	err := <-s.done
	s.app, s.cancel, s.done = nil, nil, nil
	return err
}

// Kill ends the server binary with SIGKILL: no goodbye, no cleanup.
func (s *Server) Kill() error {
	if !s.binary {
		return errors.New("only the binary can be killed")
	}
	s.setURL("")
	if s.cmd == nil {
		return nil
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
	return nil
}

// Log is what the binary wrote (diagnosis).
func (s *Server) Log() string {
	if s.log == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 1<<20 {
		return len(p), nil
	}
	return w.buf.Write(p)
}

func (s *Server) startBinary() error {
	bin, err := s.env.Binary()
	if err != nil {
		return err
	}
	if s.log == nil {
		s.log = &bytes.Buffer{}
	}
	for attempt := 0; ; attempt++ {
		if s.port == 0 || attempt > 0 {
			if s.port, err = freePort(); err != nil {
				return err
			}
		}
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(),
			config.EnvAddr+"=127.0.0.1:"+strconv.Itoa(s.port),
			config.EnvDatabaseURL+"="+s.database,
			config.EnvWebDir+"="+s.dir,
			config.EnvSecretKey+"="+s.env.secretKey,
			config.EnvLogLevel+"=warn",
		)
		w := lockedWriter{&s.mu, s.log}
		// The binary says "Patrimonio is running at …" once it holds its port. Only then is a
		// health answer on that port its own: a port found free can be taken by another
		// scenario's server before this binary binds it, and that server would answer instead.
		bound := &boundWatcher{want: "Patrimonio is running at http://127.0.0.1:" + strconv.Itoa(s.port) + "\n", seen: make(chan struct{})}
		cmd.Stdout, cmd.Stderr = io.MultiWriter(w, bound), w
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start the server binary: %w", err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		s.cmd, s.exited = cmd, exited
		base := "http://127.0.0.1:" + strconv.Itoa(s.port)
		err := waitBound(bound.seen, exited)
		if err == nil {
			err = waitHealthy(base, exited)
		}
		if err == nil {
			s.setURL(base)
			return nil
		} else if attempt == 3 {
			_ = cmd.Process.Kill()
			<-exited
			s.cmd = nil
			return fmt.Errorf("the server binary did not start: %v\n%s", err, s.Log())
		}
		_ = cmd.Process.Kill()
		<-exited
		s.cmd = nil
	}
}

// boundWatcher closes seen once the output holds want (the binary's line on its own port).
type boundWatcher struct {
	want string
	mu   sync.Mutex
	out  []byte
	seen chan struct{}
	done bool
}

func (b *boundWatcher) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return len(p), nil
	}
	b.out = append(b.out, p...)
	if bytes.Contains(b.out, []byte(b.want)) {
		b.done, b.out = true, nil
		close(b.seen)
	}
	return len(p), nil
}

// waitBound waits until the binary says it holds its port, or it exits.
func waitBound(seen, exited chan struct{}) error {
	select {
	case <-seen:
		return nil
	case <-exited:
		return errors.New("exited before it held its port")
	case <-time.After(30 * time.Second):
		return errors.New("did not say it holds its port within 30 s")
	}
}

// waitHealthy polls /api/v1/health until it answers 200, the process exits, or 2000 polls.
func waitHealthy(base string, exited chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	for range 2000 {
		select {
		case <-exited:
			return errors.New("exited")
		default:
		}
		resp, err := client.Get(base + "/api/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return errors.New("not healthy after 2000 polls")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
