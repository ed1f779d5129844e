package psync

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"patrimonio/core"
)

// DefaultMaxDrift is how far ahead of the server's wall clock a stamp may be and still be trusted
// as it is. See Clock.Bound and CLOCK.md.
const DefaultMaxDrift = 5 * time.Minute

// ClockConfig configures a Clock.
type ClockConfig struct {
	// Node is this clock's node id (16 lowercase hex characters, see NewNodeID). A node id belongs
	// to one clock state: never run two clocks with one id, and never reuse an id without its Last.
	Node string
	// Now reads the wall clock. Tests inject a scripted one; production passes time.Now.
	Now func() time.Time
	// MaxDrift bounds how far ahead of Now a remote stamp may pull this clock. Zero means no
	// bound: devices use zero, because the only stamps they observe come from the server, which has
	// bounded them already. The server uses DefaultMaxDrift.
	MaxDrift time.Duration
	// Last is the last stamp this node issued or observed (persisted state), so that the clock stays
	// monotonic across restarts. Only its Millis and Counter are used. Zero starts from scratch.
	Last Stamp
}

// Clock is a hybrid logical clock. It is safe for concurrent use.
//
// Every stamp it returns is greater than every stamp it returned or observed before (monotonic),
// whatever the wall clock does: when the wall clock stands still or goes backwards, the clock keeps
// its last millisecond and counts up; when the counter would pass 0xFFFF it moves on to the next
// millisecond (it runs a little ahead of the wall clock instead of failing). When the wall clock
// catches up, stamps follow it again with a zero counter.
//
// A remote stamp ahead of the wall clock pulls the clock forward (that is what keeps "my edit
// comes after the value I edited" true for skewed clocks), but with MaxDrift set, never further
// than MaxDrift ahead of the wall clock. See Bound for what the server does with such stamps.
type Clock struct {
	mu       sync.Mutex
	node     string
	now      func() time.Time
	maxDrift int64 // ms; 0 = unbounded
	millis   int64
	counter  uint16
}

// NewClock returns a clock, or an EINVALID error for a bad node id, a missing Now, a negative
// MaxDrift or an invalid Last.
func NewClock(cfg ClockConfig) (*Clock, error) {
	if !ValidNode(cfg.Node) {
		return nil, core.Errorf(core.EINVALID, "Invalid clock node id %q: it must be 16 lowercase hex digits.", cfg.Node)
	}
	if cfg.Now == nil {
		return nil, core.Errorf(core.EINVALID, "A clock needs a wall clock (Now).")
	}
	if cfg.MaxDrift < 0 {
		return nil, core.Errorf(core.EINVALID, "A clock's maximum drift cannot be negative.")
	}
	c := &Clock{node: cfg.Node, now: cfg.Now, maxDrift: cfg.MaxDrift.Milliseconds()}
	if !cfg.Last.IsZero() {
		if cfg.Last.Millis < 0 || cfg.Last.Millis > MaxMillis {
			return nil, core.Errorf(core.EINVALID, "Invalid last clock stamp: time %d ms is outside 1970–9999.", cfg.Last.Millis)
		}
		c.millis, c.counter = cfg.Last.Millis, cfg.Last.Counter
	}
	return c, nil
}

// NewNodeID returns a random node id (64 random bits as 16 lowercase hex characters).
func NewNodeID() string {
	var b [NodeLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("sync: crypto/rand failed: " + err.Error()) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// Node returns the clock's node id.
func (c *Clock) Node() string { return c.node }

// Last returns the clock's current state: the last stamp it issued or its position after the last
// observation. Persist it and pass it back as ClockConfig.Last.
func (c *Clock) Last() Stamp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stamp()
}

// Now returns a new stamp for a local event (an edit, a message sent): the wall time when it is
// ahead of the last stamp, otherwise the last stamp's millisecond with the counter plus one.
func (c *Clock) Now() Stamp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked(c.wall())
}

// Observe merges a stamp received from elsewhere and returns a new local stamp that is greater
// than both the clock's last stamp and remote. With MaxDrift set and remote more than MaxDrift
// ahead of the wall clock, the clock advances only to wall+MaxDrift (counter 0) and the returned
// stamp is then smaller than remote: the clock is never dragged arbitrarily far into the future.
// Observe never fails.
func (c *Clock) Observe(remote Stamp) Stamp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.observeLocked(remote, c.wall())
}

// Bound is the server's entry point for a stamp that a device sent with an edit. It returns the
// stamp under which the edit is ordered, and whether it was re-stamped.
//
//   - A stamp at most MaxDrift ahead of the server's wall clock is trusted: it is returned as it is,
//     and the clock observes it (so later server stamps order after it).
//   - A stamp further ahead comes from a clock that runs ahead (a device set to next year, a
//     poisoned clock). The edit is kept, never rejected, but re-stamped: Bound returns a fresh
//     stamp of this clock (server time, server node id), greater than everything the server has
//     issued or observed, exactly as if the edit had been made when it reached the server. The
//     remote stamp is not observed, so the clock does not move towards it.
//
// The re-stamped stamp is the edit's stamp from then on, on every replica: the server stores and
// sends it, and the device that made the edit takes it from the server's answer (see CLOCK.md).
// With MaxDrift zero, Bound never re-stamps.
func (c *Clock) Bound(remote Stamp) (Stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pt := c.wall()
	if c.maxDrift > 0 && remote.Millis > pt+c.maxDrift {
		return c.nowLocked(pt), true
	}
	c.observeLocked(remote, pt)
	return remote, false
}

func (c *Clock) stamp() Stamp { return Stamp{Millis: c.millis, Counter: c.counter, Node: c.node} }

// wall reads the wall clock in ms, clamped to the range a stamp can write.
func (c *Clock) wall() int64 {
	ms := c.now().UnixMilli()
	return min(max(ms, 0), MaxMillis)
}

// set moves the clock to (millis, counter); a counter past MaxCounter moves to the next millisecond.
func (c *Clock) set(millis int64, counter uint32) Stamp {
	if counter > MaxCounter {
		millis, counter = millis+1, 0
	}
	if millis > MaxMillis {
		// Only a clock at 9999-12-31T23:59:59.999Z that keeps counting gets here.
		panic("sync: the clock ran past 9999-12-31T23:59:59.999Z")
	}
	c.millis, c.counter = millis, uint16(counter)
	return c.stamp()
}

func (c *Clock) nowLocked(pt int64) Stamp {
	if pt > c.millis {
		return c.set(pt, 0)
	}
	return c.set(c.millis, uint32(c.counter)+1)
}

func (c *Clock) observeLocked(remote Stamp, pt int64) Stamp {
	rm, rc := remote.Millis, uint32(remote.Counter)
	if c.maxDrift > 0 && rm > pt+c.maxDrift {
		rm, rc = pt+c.maxDrift, 0
	}
	m := max(c.millis, rm, pt)
	var n uint32
	switch {
	case m == c.millis && m == rm:
		n = max(uint32(c.counter), rc) + 1
	case m == c.millis:
		n = uint32(c.counter) + 1
	case m == rm:
		n = rc + 1
	}
	return c.set(m, n)
}
