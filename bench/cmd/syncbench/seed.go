package main

import (
	"fmt"
	"patrimonio/sync/device"
	"time"
)

// seedWorkspace fills u's workspace with n records (half tasks, half assets) through the real
// socket: `devices` devices of u, each pushing 500-mutation pushes, two in flight. They do not
// follow the workspace (nothing comes back but acks).
func seedWorkspace(s *serverProc, u *user, n, devices int) error {
	const batch = 500
	per := (n + devices - 1) / devices
	errs := make(chan error, devices)
	for dv := range devices {
		from, to := dv*per, min(n, (dv+1)*per)
		go func() { errs <- seedFrom(s, u, from, to, batch) }()
	}
	var first error
	for range devices {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func seedFrom(s *serverProc, u *user, from, to, batch int) error {
	d, err := dialDevice(s, u.Cookie)
	if err != nil {
		return err
	}
	defer d.close()
	if err := d.hello(); err != nil {
		return err
	}
	c := &ingestClient{d: d, workspace: u.Workspace, window: make(chan struct{}, 2),
		acked: make(chan int, (to-from)/batch+1), failed: make(chan error, 1)}
	for start := from; start < to; start += batch {
		muts := make([]device.Mutation, 0, batch)
		for i := start; i < min(to, start+batch); i++ {
			if i%2 == 0 {
				muts = append(muts, d.create(u.Workspace, "tasks", taskFields(i)))
			} else {
				muts = append(muts, d.create(u.Workspace, "assets", assetFields(i)))
			}
		}
		c.pushes = append(c.pushes, device.Push(muts))
		c.sizes = append(c.sizes, len(muts))
	}
	go c.readLoop()
	var end time.Time
	if err := c.pushAll(0, &end); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	return nil
}

// pullSnapshot is the cold-sync baseline: a Go device with no database pulls the workspace
// snapshot through the same socket and pages as clientdb does (hello with cursor 0, a pull per
// page), only parsing each page. It returns the records received and the time taken.
func pullSnapshot(s *serverProc, u *user) (int, time.Duration, error) {
	cookie, err := u.signIn(s.url)
	if err != nil {
		return 0, 0, err
	}
	d, err := dialDevice(s, cookie)
	if err != nil {
		return 0, 0, err
	}
	defer d.close()
	start := time.Now()
	if err := d.hello(u.Workspace); err != nil {
		return 0, 0, err
	}
	n, err := d.catchUp(u.Workspace)
	return n, time.Since(start), err
}
