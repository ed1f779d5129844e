// Command pgcluster runs a throwaway PostgreSQL cluster (pgtest.StartCluster) for tests outside
// server/, which may not import server/internal/pgtest, and lets them restart it.
//
// It prints the cluster's URL on its first line of output, then reads commands from its standard
// input, one a line:
//
//	restart   restart postgres (pgtest.Cluster.Restart); answers "ok" or "error: ..."
//
// At the end of its input, or on SIGINT or SIGTERM, it stops the cluster and exits. The seeded
// sync simulation (sync/sim) uses it to restart the database under a running server.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"patrimonio/server/internal/pgtest"
)

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	c, err := pgtest.StartCluster()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgcluster:", err)
		os.Exit(1)
	}
	fmt.Println(c.URL())

	lines := make(chan string)
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			lines <- strings.TrimSpace(in.Text())
		}
		close(lines)
	}()
	code := 0
loop:
	for {
		select {
		case <-signals:
			break loop
		case line, ok := <-lines:
			if !ok {
				break loop
			}
			switch line {
			case "restart":
				if err := c.Restart(); err != nil {
					fmt.Println("error:", strings.ReplaceAll(err.Error(), "\n", " "))
				} else {
					fmt.Println("ok")
				}
			case "":
			default:
				fmt.Printf("error: unknown command %q\n", line)
			}
		}
	}
	if err := c.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "pgcluster:", err)
		code = 1
	}
	os.Exit(code)
}
