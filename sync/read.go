package psync

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
)

// Change is one entry of a workspace's change log: the mutation as applied (Body, JSON with op,
// effective stamp, fields, base, resolves, and the server's late mark), who made it and where.
type Change struct {
	Seq        int64
	Collection string
	RecordID   string
	Author     string // client id
	MutationID int64
	Body       json.RawMessage
}

// Mutation decodes the change's mutation (numbers stay exact), author included, ready for
// RecordState.Apply.
func (c Change) Mutation() (Mutation, error) {
	var b mutationBody
	if err := decodeExact(c.Body, &b); err != nil {
		return Mutation{}, fmt.Errorf("decode change %d: %w", c.Seq, err)
	}
	return Mutation{Op: b.Op, Stamp: b.Stamp, Author: c.Author, Fields: b.Fields, Base: b.Base, Resolves: b.Resolves, Late: b.Late}, nil
}

// ChangesPage is a page of the change log: changes in seq order without gaps, the cursor after
// them, and whether more are waiting.
type ChangesPage struct {
	Changes []Change
	Cursor  int64
	HasMore bool
	bytes   int
}

// SnapshotRecord is one record of a snapshot: its whole merge state (JSON) and the seq of its
// latest change.
type SnapshotRecord struct {
	Collection string
	RecordID   string
	Seq        int64
	State      json.RawMessage
}

// Decode returns the record's merge state.
func (r SnapshotRecord) Decode() (*RecordState, error) { return decodeState(r.State) }

// SnapshotPage is a page of a snapshot. Cursor is the snapshot's cursor (the workspace's head when
// it started); PageToken continues it while HasMore.
type SnapshotPage struct {
	Records   []SnapshotRecord
	Cursor    int64
	HasMore   bool
	PageToken string
	bytes     int
}

// ResyncError says that a client's position cannot be served: its cursor is older than the
// oldest change kept (cursor_too_old) or ahead of the workspace (cursor_in_future). The client
// must start again from a snapshot.
type ResyncError struct{ Reason string }

func (e *ResyncError) Error() string { return "sync: resync required: " + e.Reason }

// checkRead applies authz to the role read with the data (one statement, so that membership and
// data are one snapshot of the database).
func checkRead(role sql.NullString) error {
	return authz.Authorize(authz.Request{Role: authz.Role(role.String), Action: authz.RecordRead})
}

// ChangesPage reads the changes of a workspace after cursor, at most limit of them (and about
// MaxPageBytes), for a user who may read it. Errors: ENOTFOUND when the user is not a member,
// *ResyncError when the cursor is older than the oldest kept change or ahead of the workspace.
func (e *Engine) ChangesPage(ctx context.Context, userID, workspaceID string, after int64, limit int) (ChangesPage, error) {
	if limit <= 0 || limit > e.opts.Limits.MaxChangesPerPage {
		limit = e.opts.Limits.MaxChangesPerPage
	}
	// The page is read in a derived table with its own ORDER BY and LIMIT, so that the database
	// walks the primary key from the cursor and stops after limit+1 rows (a LIMIT outside the
	// join made Postgres read and sort every change after the cursor, for every page).
	rows, err := e.db.Query(ctx, `SELECT m.role, COALESCE(w.seq, 0), COALESCE(w.gc_seq, 0),
			c.seq, c.collection, c.record_id, c.client_id, c.mutation_id, c.mutation
		FROM memberships m
		LEFT JOIN sync_workspaces w ON w.workspace_id = m.workspace_id
		LEFT JOIN (SELECT workspace_id, seq, collection, record_id, client_id, mutation_id, mutation
			FROM sync_changes WHERE workspace_id = ? AND seq > ?
			ORDER BY seq LIMIT ?) c ON c.workspace_id = m.workspace_id
		WHERE m.workspace_id = ? AND m.user_id = ?
		ORDER BY c.seq`, workspaceID, after, limit+1, workspaceID, userID)
	if err != nil {
		return ChangesPage{}, fmt.Errorf("read changes: %w", err)
	}
	defer rows.Close()
	page := ChangesPage{Cursor: after}
	var role sql.NullString
	var head, gc int64
	seen := false
	for rows.Next() {
		var seq, mutationID sql.NullInt64
		var collection, recordID, client, body sql.NullString
		if err := rows.Scan(&role, &head, &gc, &seq, &collection, &recordID, &client, &mutationID, &body); err != nil {
			return ChangesPage{}, fmt.Errorf("read changes: %w", err)
		}
		if !seen {
			seen = true
			if err := checkRead(role); err != nil {
				return ChangesPage{}, err
			}
			if after > head {
				return ChangesPage{}, &ResyncError{Reason: ResyncCursorInFuture}
			}
			if after < gc {
				return ChangesPage{}, &ResyncError{Reason: ResyncCursorTooOld}
			}
		}
		if !seq.Valid {
			break
		}
		c := Change{Seq: seq.Int64, Collection: collection.String, RecordID: recordID.String, Author: client.String,
			MutationID: mutationID.Int64, Body: json.RawMessage(body.String)}
		size := len(c.Body) + 200
		if len(page.Changes) == limit || len(page.Changes) > 0 && page.bytes+size > e.opts.Limits.MaxPageBytes {
			page.HasMore = true
			break
		}
		page.Changes = append(page.Changes, c)
		page.bytes += size
		page.Cursor = c.Seq
	}
	if err := rows.Err(); err != nil {
		return ChangesPage{}, fmt.Errorf("read changes: %w", err)
	}
	if !seen {
		return ChangesPage{}, checkRead(sql.NullString{})
	}
	return page, nil
}

// snapshotToken is the position of a snapshot: its cursor and the last record sent.
type snapshotToken struct {
	Cursor     int64  `json:"c"`
	Collection string `json:"k"`
	RecordID   string `json:"r"`
}

func (t snapshotToken) encode() string {
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeSnapshotToken(s string) (snapshotToken, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return snapshotToken{}, false
	}
	var t snapshotToken
	if err := json.Unmarshal(raw, &t); err != nil || t.Cursor < 0 || t.Collection == "" || t.RecordID == "" {
		return snapshotToken{}, false
	}
	return t, true
}

// errBadPageToken is a page token this server did not write.
var errBadPageToken = core.Errorf(core.EINVALID, "Unknown snapshot page token.")

// SnapshotPage reads a page of a workspace's current records (tombstones included) in collection
// and id order: the first page when token is "", else the page after token. Records may be newer
// than the snapshot's cursor: a client that catches up from the cursor afterwards applies some
// changes a second time, which the merge makes a no-op. Errors: ENOTFOUND when the user is not a
// member; *ResyncError when the changes after the snapshot's cursor are no longer kept;
// EINVALID for a token this server did not write.
func (e *Engine) SnapshotPage(ctx context.Context, userID, workspaceID, token string, limit int) (SnapshotPage, error) {
	if limit <= 0 || limit > e.opts.Limits.MaxChangesPerPage {
		limit = e.opts.Limits.MaxChangesPerPage
	}
	var pos snapshotToken
	if token != "" {
		var ok bool
		if pos, ok = decodeSnapshotToken(token); !ok {
			return SnapshotPage{}, errBadPageToken
		}
	}
	// As in ChangesPage, the page is a derived table with its own ORDER BY and LIMIT, and the
	// position a row-value comparison: the database walks the primary key from the position and
	// stops after limit+1 rows (an OR of two conditions and a LIMIT outside the join made Postgres
	// read and sort every record after the position, for every page: quadratic in the workspace).
	rows, err := e.db.Query(ctx, `SELECT m.role, COALESCE(w.seq, 0), COALESCE(w.gc_seq, 0),
			r.collection, r.record_id, r.seq, r.state
		FROM memberships m
		LEFT JOIN sync_workspaces w ON w.workspace_id = m.workspace_id
		LEFT JOIN (SELECT workspace_id, collection, record_id, seq, state
			FROM sync_records WHERE workspace_id = ? AND (collection, record_id) > (?, ?)
			ORDER BY collection, record_id LIMIT ?) r ON r.workspace_id = m.workspace_id
		WHERE m.workspace_id = ? AND m.user_id = ?
		ORDER BY r.collection, r.record_id`, workspaceID, pos.Collection, pos.RecordID, limit+1, workspaceID, userID)
	if err != nil {
		return SnapshotPage{}, fmt.Errorf("read snapshot: %w", err)
	}
	defer rows.Close()
	var page SnapshotPage
	var role sql.NullString
	var head, gc int64
	seen := false
	for rows.Next() {
		var collection, recordID, state sql.NullString
		var seq sql.NullInt64
		if err := rows.Scan(&role, &head, &gc, &collection, &recordID, &seq, &state); err != nil {
			return SnapshotPage{}, fmt.Errorf("read snapshot: %w", err)
		}
		if !seen {
			seen = true
			if err := checkRead(role); err != nil {
				return SnapshotPage{}, err
			}
			if token == "" {
				pos.Cursor = head
			}
			if pos.Cursor > head {
				return SnapshotPage{}, &ResyncError{Reason: ResyncCursorInFuture}
			}
			if pos.Cursor < gc {
				return SnapshotPage{}, &ResyncError{Reason: ResyncCursorTooOld}
			}
			page.Cursor = pos.Cursor
		}
		if !collection.Valid {
			break
		}
		r := SnapshotRecord{Collection: collection.String, RecordID: recordID.String, Seq: seq.Int64, State: json.RawMessage(state.String)}
		size := len(r.State) + 200
		if len(page.Records) == limit || len(page.Records) > 0 && page.bytes+size > e.opts.Limits.MaxPageBytes {
			page.HasMore = true
			break
		}
		page.Records = append(page.Records, r)
		page.bytes += size
	}
	if err := rows.Err(); err != nil {
		return SnapshotPage{}, fmt.Errorf("read snapshot: %w", err)
	}
	if !seen {
		return SnapshotPage{}, checkRead(sql.NullString{})
	}
	if page.HasMore {
		lastRecord := page.Records[len(page.Records)-1]
		page.PageToken = snapshotToken{Cursor: page.Cursor, Collection: lastRecord.Collection, RecordID: lastRecord.RecordID}.encode()
	}
	return page, nil
}

// ReadRole returns the user's role in a workspace, authz.None when they are not a member.
func (e *Engine) ReadRole(ctx context.Context, userID, workspaceID string) (authz.Role, error) {
	return members.Role(ctx, e.db, workspaceID, userID)
}

// ConflictRecord is an open conflict: a field write that lost to a concurrent write, kept so that
// nothing is lost silently. Author is the client id of the losing write; Seq the change that
// opened it.
type ConflictRecord struct {
	Collection string
	RecordID   string
	Field      string
	Value      any
	Stamp      Stamp
	Author     string
	Seq        int64
	CreatedAt  time.Time
}

// Conflicts lists the open conflicts of a workspace for a user who may read it, in record, field
// and stamp order.
func (e *Engine) Conflicts(ctx context.Context, userID, workspaceID string) ([]ConflictRecord, error) {
	role, err := e.ReadRole(ctx, userID, workspaceID)
	if err != nil {
		return nil, err
	}
	if err := authz.Authorize(authz.Request{Role: role, Action: authz.RecordRead}); err != nil {
		return nil, err
	}
	rows, err := e.db.Query(ctx, `SELECT collection, record_id, field, value, stamp, author, seq, created_at
		FROM sync_conflicts WHERE workspace_id = ? ORDER BY collection, record_id, field, stamp`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("read conflicts: %w", err)
	}
	defer rows.Close()
	var out []ConflictRecord
	for rows.Next() {
		var c ConflictRecord
		var value, stamp string
		if err := rows.Scan(&c.Collection, &c.RecordID, &c.Field, &value, &stamp, &c.Author, &c.Seq, &c.CreatedAt); err != nil {
			return nil, fmt.Errorf("read conflicts: %w", err)
		}
		if err := decodeExact([]byte(value), &c.Value); err != nil {
			return nil, fmt.Errorf("read conflict value: %w", err)
		}
		if c.Stamp, err = ParseStamp(stamp); err != nil {
			return nil, fmt.Errorf("read conflict stamp: %w", err)
		}
		c.CreatedAt = c.CreatedAt.UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// Head returns a workspace's last seq and its garbage-collection point (0, 0 before any change).
func (e *Engine) Head(ctx context.Context, workspaceID string) (seq, gcSeq int64, err error) {
	err = e.db.QueryRow(ctx, `SELECT seq, gc_seq FROM sync_workspaces WHERE workspace_id = ?`, workspaceID).Scan(&seq, &gcSeq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("read workspace head: %w", err)
	}
	return seq, gcSeq, nil
}
