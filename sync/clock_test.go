package psync

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

func TestNewClockRejectsBadConfiguration(t *testing.T) {
	now := func() time.Time { return time.UnixMilli(0) }
	tests := []struct {
		name string
		cfg  ClockConfig
	}{
		{"a node id with uppercase letters is rejected", ClockConfig{Node: "ABCDEFABCDEFABCD", Now: now}},
		{"a node id that is too short is rejected", ClockConfig{Node: "abc", Now: now}},
		{"a clock without a wall clock is rejected", ClockConfig{Node: "0123456789abcdef"}},
		{"a negative maximum drift is rejected", ClockConfig{Node: "0123456789abcdef", Now: now, MaxDrift: -time.Second}},
		{"a last stamp beyond year 9999 is rejected", ClockConfig{Node: "0123456789abcdef", Now: now, Last: Stamp{Millis: MaxMillis + 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewClock(tt.cfg); err == nil {
				t.Fatal("NewClock accepted it")
			}
		})
	}
}

func TestNewNodeIDIsAValidRandomNodeID(t *testing.T) {
	a, b := NewNodeID(), NewNodeID()
	if !ValidNode(a) || !ValidNode(b) {
		t.Fatalf("invalid node ids %q %q", a, b)
	}
	if a == b {
		t.Fatalf("two node ids are equal: %q", a)
	}
}

func TestClockLastResumesWhereTheClockStopped(t *testing.T) {
	wall := time.UnixMilli(1_740_823_200_000)
	c1, err := NewClock(ClockConfig{Node: "0123456789abcdef", Now: func() time.Time { return wall }})
	if err != nil {
		t.Fatal(err)
	}
	var last Stamp
	for range 5 {
		last = c1.Now()
	}
	if c1.Last() != last {
		t.Fatalf("Last() = %s, want %s", c1.Last(), last)
	}
	wall = wall.Add(-time.Hour) // restarted with a wall clock an hour behind
	c2, err := NewClock(ClockConfig{Node: "0123456789abcdef", Now: func() time.Time { return wall }, Last: c1.Last()})
	if err != nil {
		t.Fatal(err)
	}
	if next := c2.Now(); !next.After(last) {
		t.Fatalf("after a restart Now() = %s, not after %s", next, last)
	}
}

// TestClockIsMonotonicUnderRandomWallClocks drives clocks with a wall clock that jumps forwards
// and backwards and with remote stamps far behind and far ahead, and checks the HLC guarantees.
func TestClockIsMonotonicUnderRandomWallClocks(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0))
	for run := range 200 {
		wall := int64(1_740_823_200_000)
		drift := int64(0)
		if run%2 == 1 {
			drift = 300_000
		}
		c, err := NewClock(ClockConfig{
			Node:     "0123456789abcdef",
			Now:      func() time.Time { return time.UnixMilli(wall) },
			MaxDrift: time.Duration(drift) * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		prev := c.Last()
		for step := range 2000 {
			switch rng.IntN(10) {
			case 0:
				wall -= rng.Int64N(10_000) // backwards
			case 1, 2, 3:
				wall += rng.Int64N(5)
			}
			var got Stamp
			remote := Stamp{Millis: wall + rng.Int64N(4_000_000) - 2_000_000, Counter: uint16(rng.IntN(MaxCounter + 1)), Node: "fedcba9876543210"}
			switch rng.IntN(3) {
			case 0:
				got = c.Now()
			case 1:
				got = c.Observe(remote)
				horizon := wall + drift
				if drift == 0 || remote.Millis <= horizon {
					if !got.After(remote) {
						t.Fatalf("seed %d run %d step %d: Observe(%s) = %s, not after the remote", seed, run, step, remote, got)
					}
				} else if got.Millis > max(prev.Millis+1, horizon) {
					t.Fatalf("seed %d run %d step %d: Observe(%s) = %s, dragged past the horizon", seed, run, step, remote, got)
				}
			case 2:
				var restamped bool
				got, restamped = c.Bound(remote)
				if restamped {
					if drift == 0 || remote.Millis <= wall+drift {
						t.Fatalf("seed %d run %d step %d: Bound re-stamped %s within the drift", seed, run, step, remote)
					}
					if got.Node != c.Node() {
						t.Fatalf("seed %d run %d step %d: a re-stamp carries node %s", seed, run, step, got.Node)
					}
				} else {
					if got != remote {
						t.Fatalf("seed %d run %d step %d: Bound(%s) = %s without re-stamping", seed, run, step, remote, got)
					}
					// The clock observed it: its next stamp orders after it.
					got = c.Last()
					if !got.After(remote) {
						t.Fatalf("seed %d run %d step %d: after Bound(%s) the clock is at %s", seed, run, step, remote, got)
					}
				}
			}
			if got.Node == c.Node() && !got.After(prev) {
				t.Fatalf("seed %d run %d step %d: %s is not after the previous stamp %s", seed, run, step, got, prev)
			}
			if got.Node == c.Node() {
				prev = got
			}
		}
	}
}

func TestClockGivesUniqueStampsUnderConcurrentUse(t *testing.T) {
	c, err := NewClock(ClockConfig{Node: "0123456789abcdef", Now: func() time.Time { return time.UnixMilli(1_740_823_200_000) }})
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 20_000 // more than one counter's worth within one wall millisecond
	out := make(chan Stamp, workers*each)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				out <- c.Now()
			}
		})
	}
	wg.Wait()
	close(out)
	seen := map[Stamp]bool{}
	for s := range out {
		if seen[s] {
			t.Fatalf("stamp %s issued twice", s)
		}
		seen[s] = true
	}
	if last := c.Last(); last.Millis != 1_740_823_200_000+2 {
		t.Fatalf("after %d stamps in one wall millisecond the clock is at %s, want two overflows", workers*each, last)
	}
}
