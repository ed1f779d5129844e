package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// buildServer builds the server binary (go build, as `make server` does) into dir; with pprof,
// the same server with the profiler (bench/cmd/profserver).
func buildServer(ctx context.Context, repo, dir string, pprof bool) (string, error) {
	bin := filepath.Join(dir, "patrimonio")
	pkg := "./server/cmd/patrimonio"
	if pprof {
		pkg = "./bench/cmd/profserver"
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build the server: %w\n%s", err, out)
	}
	return bin, nil
}

// serverProc is one running server binary on a free loopback port.
type serverProc struct {
	bin, dbURL, key string
	url             string // http://127.0.0.1:port, also the public URL (the sockets' Origin)
	pprofURL        string // the profiler of profserver (syncbench -profile), else ""
	dir             string
	cmd             *exec.Cmd
	exited          chan struct{}
	log             *os.File
}

// startServer starts the binary on a free port against dbURL and waits until it answers
// /api/v1/health. The secret key is fresh per server unless one is passed (a restart of the same
// database keeps it).
func startServer(bin, dbURL, dir, key string, pprof bool) (*serverProc, error) {
	if key == "" {
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		key = base64.StdEncoding.EncodeToString(k)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &serverProc{bin: bin, dbURL: dbURL, key: key, dir: dir, url: "http://127.0.0.1:" + strconv.Itoa(port)}
	webDir := filepath.Join(dir, "web")
	if err := os.MkdirAll(webDir, 0o755); err != nil {
		return nil, err
	}
	s.log, err = os.OpenFile(filepath.Join(dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"DATABASE_URL=" + dbURL,
		"PATRIMONIO_ADDR=127.0.0.1:" + strconv.Itoa(port),
		"PATRIMONIO_PUBLIC_URL=" + s.url,
		"PATRIMONIO_WEB_DIR=" + webDir,
		"PATRIMONIO_LOG_LEVEL=warn",
		"PATRIMONIO_SECRET_KEY=" + key,
		// The bench signs every user up from 127.0.0.1: lift the per-client sign-up limit.
		"PATRIMONIO_SIGNUPS_PER_IP=1000000",
	}
	// BENCH_SERVER_GOMAXPROCS: the server's GOMAXPROCS, for experiments (unset: the Go default).
	if v := os.Getenv("BENCH_SERVER_GOMAXPROCS"); v != "" {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+v)
	}
	if pprof {
		pport, err := freePort()
		if err != nil {
			return nil, err
		}
		s.pprofURL = "http://127.0.0.1:" + strconv.Itoa(pport) + "/debug/pprof"
		cmd.Env = append(cmd.Env, "BENCH_PPROF_ADDR=127.0.0.1:"+strconv.Itoa(pport))
		if v := os.Getenv("BENCH_FREE_OS_MEMORY"); v != "" {
			cmd.Env = append(cmd.Env, "BENCH_FREE_OS_MEMORY="+v)
		}
	}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	// The server must not outlive the bench, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		s.log.Close()
		return nil, fmt.Errorf("start the server: %w", err)
	}
	s.cmd = cmd
	s.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case <-s.exited:
			return nil, fmt.Errorf("the server exited at start:\n%s", s.logTail())
		default:
		}
		res, err := http.Get(s.url + "/api/v1/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("the server did not answer /api/v1/health within a minute:\n%s", s.logTail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *serverProc) pid() int { return s.cmd.Process.Pid }

func (s *serverProc) syncURL() string {
	return "ws" + strings.TrimPrefix(s.url, "http") + "/api/v1/sync"
}

// stop asks the server to shut down (SIGTERM) and waits for it (killed after 30 s).
func (s *serverProc) stop() {
	if s.cmd == nil {
		return
	}
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	}
	s.log.Close()
}

// restart stops the server and starts a new process on the same database and key (sessions
// survive: they live in the database).
func (s *serverProc) restart() (*serverProc, error) {
	s.stop()
	return startServer(s.bin, s.dbURL, s.dir, s.key, s.pprofURL != "")
}

func (s *serverProc) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// rssMB is the process's resident set (VmRSS of /proc/<pid>/status) in MiB.
func rssMB(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			fields := strings.Fields(string(rest))
			if len(fields) != 2 || fields[1] != "kB" {
				return 0, fmt.Errorf("unexpected VmRSS line %q", line)
			}
			kb, err := strconv.ParseFloat(fields[0], 64)
			if err != nil {
				return 0, err
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// profile saves a profile of the server (kind: heap, goroutine, allocs; profile for CPU over
// seconds) into dir/name.pprof. Without the profiler it does nothing.
func (s *serverProc) profile(dir, name, kind string, seconds int) error {
	if s.pprofURL == "" || dir == "" {
		return nil
	}
	u := s.pprofURL + "/" + kind
	if kind == "profile" || kind == "trace" || kind == "allocs" {
		// allocs with seconds: the allocations made over that interval alone (a delta profile).
		u += "?seconds=" + strconv.Itoa(seconds)
	} else if kind == "heap" {
		u += "?gc=1"
	} else if kind == "memstats" {
		u = s.pprofURL + "/heap?debug=1"
	}
	res, err := http.Get(u)
	if err != nil {
		return fmt.Errorf("profile %s: %w", kind, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("profile %s: HTTP %d", kind, res.StatusCode)
	}
	ext := ".pprof"
	if kind == "memstats" {
		ext = ".txt"
	}
	f, err := os.Create(filepath.Join(dir, name+ext))
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, res.Body)
	return err
}

// cpuProfile starts a CPU profile (or, when name ends in _trace, an execution trace) of seconds
// in the background; wait for it with the function.
func (s *serverProc) cpuProfile(dir, name string, seconds int) func() {
	kind := "profile"
	if strings.HasSuffix(name, "_trace") {
		kind = "trace"
	} else if strings.HasSuffix(name, "_allocs") {
		kind = "allocs"
	}
	done := make(chan error, 1)
	go func() { done <- s.profile(dir, name, kind, seconds) }()
	return func() {
		if err := <-done; err != nil {
			fmt.Fprintln(os.Stderr, "syncbench:", err)
		}
	}
}
