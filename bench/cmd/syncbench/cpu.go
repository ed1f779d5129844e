package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// CPU time spent by the processes of a measurement, from /proc (user + system). On a shared
// machine a rate depends on what else runs; the CPU a mutation costs much less so.

const clockTicks = 100 // USER_HZ: the unit of /proc/<pid>/stat times on Linux

// procStat reads the parent pid and user+system CPU seconds of a process.
func procStat(pid int) (ppid int, cpu float64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: fields count after it.
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return 0, 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
	if len(f) < 13 {
		return 0, 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	ppid, _ = strconv.Atoi(f[1])
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return ppid, (utime + stime) / clockTicks, nil
}

func processCPU(pid int) float64 {
	_, cpu, err := procStat(pid)
	if err != nil {
		return 0
	}
	return cpu
}

// postgresCPU sums the CPU of a Postgres cluster: its postmaster and every process it started
// (backends, WAL writer, checkpointer ...). A backend that exits in between takes its time along.
type postgresCPU struct{ postmaster int }

// findPostgres finds the postmaster of the cluster behind dbURL (its data directory's
// postmaster.pid). It fails when the cluster is not on this machine or not readable.
func findPostgres(ctx context.Context, dbURL string) (postgresCPU, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return postgresCPU{}, err
	}
	defer conn.Close(ctx)
	var dir string
	if err := conn.QueryRow(ctx, `SHOW data_directory`).Scan(&dir); err != nil {
		return postgresCPU{}, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return postgresCPU{}, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return postgresCPU{}, fmt.Errorf("read postmaster.pid: %w", err)
	}
	return postgresCPU{postmaster: pid}, nil
}

func (p postgresCPU) seconds() float64 {
	if p.postmaster == 0 {
		return 0
	}
	total := processCPU(p.postmaster)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == p.postmaster {
			continue
		}
		if ppid, cpu, err := procStat(pid); err == nil && ppid == p.postmaster {
			total += cpu
		}
	}
	return total
}

// cpuMeter measures the CPU of the server, of Postgres and of this process over an interval.
type cpuMeter struct {
	server     int // pid, 0: none
	pg         postgresCPU
	s, p, self float64
}

func startCPU(server int, pg postgresCPU) *cpuMeter {
	m := &cpuMeter{server: server, pg: pg}
	m.s, m.p, m.self = m.read()
	return m
}

func (m *cpuMeter) read() (server, pg, self float64) {
	if m.server != 0 {
		server = processCPU(m.server)
	}
	return server, m.pg.seconds(), processCPU(os.Getpid())
}

// stop returns the CPU seconds used since start.
func (m *cpuMeter) stop() (server, pg, self float64) {
	s, p, self := m.read()
	return s - m.s, p - m.p, self - m.self
}
