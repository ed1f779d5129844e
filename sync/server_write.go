package psync

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"patrimonio/core"
)

// Server-side writes. Some records are written by the server itself: balances read from a bank
// or broker (server/connect) become valuations of an asset. They must reach devices exactly like
// a device's edit, so the server writes them as its own sync client: one client id per user
// (ServerClientID), bound to that user, whose mutations go through the same path as a push — the
// schema check of the push message, the user's role in the workspace, the per-field merge against
// the record's clocks, the change log and the fan-out to every socket. The stamps come from the
// engine's clock. A server write is made on behalf of a member: if that member may no longer
// write in the workspace (a viewer now, or gone), the write is rejected like their push would be.

// ServerChange is one record the server writes: a put of Fields, or a delete.
type ServerChange struct {
	Collection string
	RecordID   string
	Delete     bool
	Fields     map[string]any
}

// serverClientNamespace names the server's client ids (a UUIDv5 namespace of our own).
var serverClientNamespace = uuid.MustParse("6f1d3a64-96b5-4d8e-9a0b-3c0e5a7d2b11")

// ServerClientID is the client id the server writes with on behalf of userID.
func ServerClientID(userID string) string {
	return uuid.NewSHA1(serverClientNamespace, []byte("patrimonio-server:"+userID)).String()
}

// errServerWriteRejected is returned when a server write was refused; the outcome says why.
var errServerWriteRejected = errors.New("sync: a server write was rejected")

// RejectedError is a refused server write: which change, and the engine's verdict.
type RejectedError struct {
	Index   int
	Outcome Outcome
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("sync: server write %d rejected (%s): %v", e.Index, e.Outcome.Code, e.Outcome.Issues)
}

func (e *RejectedError) Unwrap() error {
	if e.Outcome.Code == RejectForbidden || e.Outcome.Code == RejectNotFound {
		return core.Errorf(core.EFORBIDDEN, "You may not change records in this workspace.")
	}
	return errServerWriteRejected
}

// WriteAsServer applies changes to workspaceID as the server's client for userID, in one push,
// and returns the outcome of each. Each put carries, as its base, the record's field clocks as
// stored now, so that it replaces what it saw without opening a conflict; a device edit that
// lands in between is concurrent and kept as a conflict, as between two devices. A rejected
// change fails the call with a *RejectedError (the others of the push may have been applied).
func (e *Engine) WriteAsServer(ctx context.Context, userID, workspaceID string, changes []ServerChange) ([]Outcome, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	if len(changes) > e.opts.Limits.MaxMutationsPerPush {
		return nil, core.Errorf(core.ETOOLARGE, "A push may hold at most %d mutations.", e.opts.Limits.MaxMutationsPerPush)
	}
	client := Client{UserID: userID, ClientID: ServerClientID(userID)}
	if err := e.BindClient(ctx, client.UserID, client.ClientID); err != nil {
		return nil, err
	}
	// One server write at a time in this process keeps its mutation ids increasing; another
	// instance that took the same id makes ours a duplicate, which is retried with the next.
	e.serverWrites.Lock()
	defer e.serverWrites.Unlock()
	for attempt := 0; attempt < 5; attempt++ {
		var last int64
		err := e.db.QueryRow(ctx, `SELECT last_mutation_id FROM sync_client_workspaces WHERE client_id = ? AND workspace_id = ?`,
			client.ClientID, workspaceID).Scan(&last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sync: read the server client's last mutation: %w", err)
		}
		list := make([]any, 0, len(changes))
		for i, c := range changes {
			base, err := e.fieldClocks(ctx, workspaceID, c.Collection, c.RecordID)
			if err != nil {
				return nil, err
			}
			m := map[string]any{
				"mutationId": last + int64(i) + 1, "workspaceId": workspaceID, "collection": c.Collection,
				"recordId": c.RecordID, "stamp": e.clock.Now().String(), "base": base, "op": string(OpPut),
			}
			if c.Delete {
				m["op"] = string(OpDelete)
			} else {
				m["fields"] = c.Fields
			}
			list = append(list, m)
		}
		// Through JSON, so the values are exactly what a socket would have decoded.
		raw, err := json.Marshal(map[string]any{"type": msgPush, "mutations": list})
		if err != nil {
			return nil, fmt.Errorf("sync: encode a server write: %w", err)
		}
		doc, err := decodeDocument(raw)
		if err != nil {
			return nil, err
		}
		muts, rejected, err := ParsePush(doc.(map[string]any), e.opts.Limits.MaxMutationsPerPush)
		if err != nil {
			return nil, fmt.Errorf("sync: server write: %w", err)
		}
		if len(rejected) > 0 {
			return nil, &RejectedError{Index: int(rejected[0].MutationID - last - 1), Outcome: rejected[0]}
		}
		outcomes, err := e.Apply(ctx, client, muts)
		if err != nil {
			return nil, err
		}
		duplicate := false
		for i, o := range outcomes {
			switch o.Status {
			case StatusRejected:
				return outcomes, &RejectedError{Index: i, Outcome: o}
			case StatusDuplicate:
				duplicate = true
			}
		}
		if !duplicate {
			return outcomes, nil
		}
	}
	return nil, fmt.Errorf("sync: server write: mutation ids kept colliding with another instance")
}

// fieldClocks returns the stored record's field clocks (empty for a new record).
func (e *Engine) fieldClocks(ctx context.Context, workspaceID, collection, recordID string) (map[string]string, error) {
	var raw []byte
	err := e.db.QueryRow(ctx, `SELECT state FROM sync_records WHERE workspace_id = ? AND collection = ? AND record_id = ?`,
		workspaceID, collection, recordID).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sync: read %s/%s: %w", collection, recordID, err)
	}
	st, err := decodeState(raw)
	if err != nil {
		return nil, fmt.Errorf("sync: decode %s/%s: %w", collection, recordID, err)
	}
	out := make(map[string]string, len(st.Clocks))
	for f, s := range st.Clocks {
		out[f] = s.String()
	}
	return out, nil
}

// RecordFields returns a stored record's current field values, or nil when there is no such record
// or it is deleted. The server reads it before writing for a record a member may have changed since
// (an asset marked sold takes no more balances from a connection).
func (e *Engine) RecordFields(ctx context.Context, workspaceID, collection, recordID string) (map[string]any, error) {
	var raw []byte
	var deleted bool
	err := e.db.QueryRow(ctx, `SELECT state, deleted FROM sync_records WHERE workspace_id = ? AND collection = ? AND record_id = ?`,
		workspaceID, collection, recordID).Scan(&raw, &deleted)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sync: read %s/%s: %w", collection, recordID, err)
	}
	if deleted {
		return nil, nil
	}
	st, err := decodeState(raw)
	if err != nil {
		return nil, fmt.Errorf("sync: decode %s/%s: %w", collection, recordID, err)
	}
	if st.Fields == nil {
		return map[string]any{}, nil
	}
	return st.Fields, nil
}
