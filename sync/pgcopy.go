package psync

import (
	"encoding/binary"
	"slices"
	"time"
)

// The group commit writes its new records and its change log with COPY in Postgres's binary
// format, written here: pgx's CopyFrom encodes each value through its type map (a plan per value)
// and grows a new buffer for every COPY, which cost the server more than writing the few types of
// these two tables by hand. The rows write their own tuples (recordRows, changeRows), with no
// value boxed into an interface, into a buffer grown once to the data's exact size.
// pgcopy_internal_test.go checks the column types against the database and the tuples against
// the rows' values.

// postgresEpochMicros is the zero of Postgres's binary timestamps, 2000-01-01 UTC, in Unix
// microseconds.
var postgresEpochMicros = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// copyRows are rows that write their own binary COPY tuples: recordRows and changeRows for the
// group commit's rows, straight from the engine's values.
type copyRows interface {
	count() int
	// tupleSize is the length of row i's tuple (its field count and fields).
	tupleSize(i int) int
	appendTuple(b []byte, i int) []byte
}

// appendCopyData appends the whole COPY ... FROM STDIN BINARY data of rows: header, tuples,
// trailer. b grows once, to the data's exact size: a group's COPY is a few MB, which growing by
// doubling copied about twice over.
func appendCopyData(b []byte, rows copyRows) []byte {
	n := 11 + 4 + 4 + 2 // signature, flags, header extension length; trailer
	for i := range rows.count() {
		n += rows.tupleSize(i)
	}
	b = slices.Grow(b, n)
	b = append(b, "PGCOPY\n\xff\r\n\x00"...)
	b = binary.BigEndian.AppendUint32(b, 0) // flags
	b = binary.BigEndian.AppendUint32(b, 0) // header extension length
	for i := range rows.count() {
		b = rows.appendTuple(b, i)
	}
	return binary.BigEndian.AppendUint16(b, 0xffff) // trailer: -1
}

// The fields of a tuple: a 4-byte length, then the value in Postgres's binary form.

func appendCopyFields(b []byte, n int) []byte { return binary.BigEndian.AppendUint16(b, uint16(n)) }

func appendCopyText[T ~string | ~[]byte](b []byte, s T) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendCopyInt8(b []byte, n int64) []byte {
	b = binary.BigEndian.AppendUint32(b, 8)
	return binary.BigEndian.AppendUint64(b, uint64(n))
}

func appendCopyInt4(b []byte, n int32) []byte {
	b = binary.BigEndian.AppendUint32(b, 4)
	return binary.BigEndian.AppendUint32(b, uint32(n))
}

func appendCopyBool(b []byte, t bool) []byte {
	b = binary.BigEndian.AppendUint32(b, 1)
	if t {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendCopyTimestamptz(b []byte, t time.Time) []byte {
	b = binary.BigEndian.AppendUint32(b, 8)
	return binary.BigEndian.AppendUint64(b, uint64(t.UnixMicro()-postgresEpochMicros))
}

// Sizes of the fields above.
const (
	copyFieldsSize      = 2
	copyInt8Size        = 4 + 8
	copyInt4Size        = 4 + 4
	copyBoolSize        = 4 + 1
	copyTimestamptzSize = 4 + 8
)

func copyTextSize[T ~string | ~[]byte](s T) int { return 4 + len(s) }

// rowSet is what txn.insert writes: count rows, each with one value per column in column order
// (values, for an INSERT), which also write their own binary COPY tuples (for a COPY).
type rowSet interface {
	copyRows
	values(i int) []any
}

// recordRows are sync_records rows (recordColumns), updated at now.
type recordRows struct {
	rows []recordRow
	now  time.Time
}

type recordRow struct {
	key recordKey
	r   *recordEntry
}

func (x recordRows) count() int { return len(x.rows) }

func (x recordRows) values(i int) []any { return recordValues(x.rows[i].key, x.rows[i].r, x.now) }

// recordValues are a sync_records row's values (recordColumns).
func recordValues(key recordKey, r *recordEntry, now time.Time) []any {
	return []any{key.workspace, key.collection, key.id, r.seq, r.deleted(), r.conflicts(), string(r.encoded), now}
}

func (x recordRows) tupleSize(i int) int {
	row := x.rows[i]
	return copyFieldsSize + copyTextSize(row.key.workspace) + copyTextSize(row.key.collection) + copyTextSize(row.key.id) +
		copyInt8Size + copyBoolSize + copyInt8Size + copyTextSize(row.r.encoded) + copyTimestamptzSize
}

func (x recordRows) appendTuple(b []byte, i int) []byte {
	row := x.rows[i]
	b = appendCopyFields(b, 8)
	b = appendCopyText(b, row.key.workspace)
	b = appendCopyText(b, row.key.collection)
	b = appendCopyText(b, row.key.id)
	b = appendCopyInt8(b, row.r.seq)
	b = appendCopyBool(b, row.r.deleted())
	b = appendCopyInt8(b, row.r.conflicts())
	b = appendCopyText(b, row.r.encoded)
	return appendCopyTimestamptz(b, x.now)
}

// changeRows are sync_changes rows (changeColumns), created at now.
type changeRows struct {
	rows []changeRow
	now  time.Time
}

func (x changeRows) count() int { return len(x.rows) }

func (x changeRows) values(i int) []any {
	c := x.rows[i]
	return []any{c.key.workspace, c.seq, c.key.collection, c.key.id, c.client, c.mutationID, string(c.body), x.now, c.run}
}

func (x changeRows) tupleSize(i int) int {
	c := x.rows[i]
	return copyFieldsSize + copyTextSize(c.key.workspace) + copyInt8Size + copyTextSize(c.key.collection) + copyTextSize(c.key.id) +
		copyTextSize(c.client) + copyInt8Size + copyTextSize(c.body) + copyTimestamptzSize + copyInt4Size
}

func (x changeRows) appendTuple(b []byte, i int) []byte {
	c := x.rows[i]
	b = appendCopyFields(b, 9)
	b = appendCopyText(b, c.key.workspace)
	b = appendCopyInt8(b, c.seq)
	b = appendCopyText(b, c.key.collection)
	b = appendCopyText(b, c.key.id)
	b = appendCopyText(b, c.client)
	b = appendCopyInt8(b, c.mutationID)
	b = appendCopyText(b, c.body)
	b = appendCopyTimestamptz(b, x.now)
	return appendCopyInt4(b, c.run)
}
