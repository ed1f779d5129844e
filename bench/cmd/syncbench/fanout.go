package main

import (
	"bytes"
	"errors"
	"fmt"
	"patrimonio/sync/device"
	"sort"
	"sync"
	"time"
)

// fanoutPair is two devices of one user syncing the same workspace live: A pushes, B receives.
type fanoutPair struct {
	a, b      *benchDevice
	workspace string
	seen      chan time.Time // B got the change frame carrying the awaited record
	failed    chan error
	mu        sync.Mutex
	awaited   []byte // the record id B waits for, as it appears in the frame
}

func openFanoutPair(s *serverProc, u *user, cookieA, cookieB string) (*fanoutPair, error) {
	p := &fanoutPair{workspace: u.Workspace, seen: make(chan time.Time, 1), failed: make(chan error, 2)}
	var err error
	if p.a, err = dialDevice(s, cookieA); err != nil {
		return nil, err
	}
	if p.b, err = dialDevice(s, cookieB); err != nil {
		p.a.close()
		return nil, err
	}
	for _, d := range []*benchDevice{p.a, p.b} {
		if err := d.hello(u.Workspace); err != nil {
			p.close()
			return nil, err
		}
		if _, err := d.catchUp(u.Workspace); err != nil {
			p.close()
			return nil, err
		}
	}
	go p.readA()
	go p.readB()
	return p, nil
}

func (p *fanoutPair) close() {
	p.a.close()
	p.b.close()
}

// readA takes A's acks and the changes sent back to it.
func (p *fanoutPair) readA() {
	for {
		typ, msg, err := p.a.read(0)
		if err != nil {
			p.failed <- fmt.Errorf("device A: %w", err)
			return
		}
		if typ == "ack" {
			acks, err := device.DecodeAcks(msg)
			if err != nil || len(acks) != 1 || acks[0].Status != "applied" {
				p.failed <- fmt.Errorf("device A: unexpected ack %s", msg)
				return
			}
		}
	}
}

// readB notes when the awaited record arrives in a changes frame (the time the frame was read).
func (p *fanoutPair) readB() {
	for {
		typ, msg, err := p.b.read(0)
		at := time.Now()
		if err != nil {
			p.failed <- fmt.Errorf("device B: %w", err)
			return
		}
		if typ != "changes" {
			continue
		}
		p.mu.Lock()
		hit := p.awaited != nil && bytes.Contains(msg, p.awaited)
		if hit {
			p.awaited = nil
		}
		p.mu.Unlock()
		if hit {
			p.seen <- at
		}
	}
}

// measure pushes `samples` one-mutation pushes (task creations) from A, one at a time, and
// returns, for each, the time from A's send to B reading the change frame that carries it. A
// sample starts `gap` after the previous one arrived (the socket's message rate limit is
// 100 per second).
func (p *fanoutPair) measure(samples, warmup int, gap time.Duration) ([]time.Duration, error) {
	var out []time.Duration
	for i := range warmup + samples {
		m := p.a.create(p.workspace, "tasks", taskFields(i))
		msg := device.Push([]device.Mutation{m})
		p.mu.Lock()
		p.awaited = []byte(`"recordId":"` + m.Record + `"`)
		p.mu.Unlock()
		start := time.Now()
		if err := p.a.write(msg); err != nil {
			return nil, err
		}
		select {
		case at := <-p.seen:
			if i >= warmup {
				out = append(out, at.Sub(start))
			}
		case err := <-p.failed:
			return nil, err
		case <-time.After(30 * time.Second):
			return nil, errors.New("B did not receive a change within 30 s")
		}
		time.Sleep(gap)
	}
	return out, nil
}

// percentile of sorted durations (nearest rank), in milliseconds.
func percentileMS(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(p/100*float64(len(s)) + 0.999999)
	rank = min(max(rank, 1), len(s))
	return float64(s[rank-1]) / float64(time.Millisecond)
}

// idleConns are authenticated sockets that said hello with their user's workspace (so each is
// live on it, as an open app is) and then only answer pings.
type idleConns struct {
	devices []*benchDevice
}

// openIdle opens n sockets spread over users (the server allows 32 per user), `parallel` handshakes
// at a time.
func openIdle(s *serverProc, users []*user, n, perUser, parallel int) (*idleConns, error) {
	ic := &idleConns{devices: make([]*benchDevice, n)}
	errs := make(chan error, n)
	sem := make(chan struct{}, parallel)
	for i := range n {
		u := users[i/perUser]
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			d, err := dialDevice(s, u.Cookie)
			if err != nil {
				errs <- err
				return
			}
			ic.devices[i] = d
			if err := d.hello(u.Workspace); err != nil {
				errs <- err
				return
			}
			if _, err := d.catchUp(u.Workspace); err != nil {
				errs <- err
				return
			}
			go func() {
				// Reading answers the server's pings (gorilla replies with a pong while reading).
				for {
					if _, _, err := d.read(0); err != nil {
						return
					}
				}
			}()
			errs <- nil
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		ic.close()
		return nil, fmt.Errorf("open idle sockets: %w", first)
	}
	return ic, nil
}

func (ic *idleConns) close() {
	for _, d := range ic.devices {
		if d != nil {
			d.close()
		}
	}
}
