package main

import (
	"strconv"
	"time"

	"patrimonio/sync/device"
)

// benchDevice is one device of the benchmarks: the device side of the protocol of sync/device
// (its socket, its identity), dialled to the server under test.
type benchDevice struct {
	conn *device.Conn
	id   *device.Identity
}

// dialDevice opens a socket with the session cookie and the Origin a browser would send.
func dialDevice(s *serverProc, cookie string) (*benchDevice, error) {
	conn, _, err := device.Dial(s.syncURL(), device.DialOptions{Origin: s.url, Cookie: cookie})
	if err != nil {
		return nil, err
	}
	id, err := device.NewIdentity()
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &benchDevice{conn: conn, id: id}, nil
}

func (d *benchDevice) close() { _ = d.conn.Close() }

func (d *benchDevice) write(msg []byte) error { return d.conn.Write(msg) }

// read returns the next message and its type; an `error` (or reject, resyncRequired,
// accessDenied) from the server is an error.
func (d *benchDevice) read(timeout time.Duration) (string, []byte, error) {
	return d.conn.ReadExpecting(timeout)
}

// hello says hello for a first sync of the fresh workspaces (null cursors: snapshots) and waits
// for welcome.
func (d *benchDevice) hello(fresh ...string) error {
	return d.id.Hello(d.conn, device.Hello{Fresh: fresh})
}

// catchUp reads pages of workspace (pulling while hasMore) until one says hasMore false: after
// it the workspace is live on this socket. It returns the number of records or changes read.
func (d *benchDevice) catchUp(workspace string) (int, error) {
	return device.CatchUp(d.conn, workspace)
}

// create makes the mutation that creates a new record of collection with fields.
func (d *benchDevice) create(workspace, collection string, fields map[string]any) device.Mutation {
	return d.id.Create(workspace, collection, fields)
}

// assetFields and taskFields are valid records of two collections (an asset of 6 fields, a task
// of 3), with text that differs per record.
func assetFields(i int) map[string]any {
	return map[string]any{"name": "Piso en Valencia " + strconv.Itoa(i), "assetClass": "real_estate", "category": "residential",
		"currency": "EUR", "participation": "100", "currentValue": strconv.Itoa(150000+i%100000) + ".50"}
}

func taskFields(i int) map[string]any {
	return map[string]any{"title": "Revisar la póliza del seguro " + strconv.Itoa(i), "status": "todo", "priority": "medium"}
}
