package psync

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"patrimonio/internal/testkit"
	"patrimonio/server/store"
)

// TestBinaryCopyColumnsAreTheTables: the column types the hand-written binary COPY writes are the
// tables' (a migration that changes one fails here), and what it writes reads back as written:
// text with accents, quotes and tabs, bigints and integers of both signs, both booleans, and timestamps to the
// microsecond before and after 2000.
func TestBinaryCopyColumnsAreTheTables(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		if db.Dialect() != store.Postgres {
			return // binary COPY is Postgres's; SQLite writes multi-row INSERTs
		}
		ctx := context.Background()
		names := map[string][]string{"sync_records": recordColumns, "sync_changes": changeColumns}
		pgName := map[pgColumn]string{pgText: "text", pgInt8: "bigint", pgInt4: "integer", pgBool: "boolean", pgTimestamptz: "timestamp with time zone"}
		for table, types := range copyColumns {
			columns := names[table]
			if len(columns) != len(types) {
				t.Fatalf("%s: %d types for %d columns", table, len(types), len(columns))
			}
			for i, c := range columns {
				var got string
				if err := db.QueryRow(ctx, `SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = ?`, table, c).Scan(&got); err != nil {
					t.Fatalf("%s.%s: %v", table, c, err)
				}
				if got != pgName[types[i]] {
					t.Errorf("%s.%s is %s, binary COPY writes it as %s", table, c, got, pgName[types[i]])
				}
			}
		}

		conn, err := db.Pool().Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Release()
		if _, err := conn.Exec(ctx, `CREATE TEMP TABLE copy_check (a text, b bigint, c boolean, d timestamptz, e integer)`); err != nil {
			t.Fatal(err)
		}
		types := []pgColumn{pgText, pgInt8, pgBool, pgTimestamptz, pgInt4}
		rows := [][]any{
			{"Revisar la póliza «hogar»\t\"sí\"\n€😀", int64(-9007199254740991), false, time.Date(1999, 12, 31, 23, 59, 59, 999999000, time.UTC), int32(-2147483648)},
			{"", int64(9007199254740991), true, time.Date(2026, 11, 28, 23, 7, 1, 123456000, time.FixedZone("CET", 3600)), int32(2147483647)},
			{strings.Repeat("x", 70000), int64(0), true, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), int32(0)},
		}
		data, err := appendBinaryCopy(nil, types, rows)
		if err != nil {
			t.Fatal(err)
		}
		// Appending to what a buffer holds keeps it.
		if again, _ := appendBinaryCopy([]byte("kept"), types, rows); string(again[:4]) != "kept" || string(again[4:]) != string(data) {
			t.Error("appending to a buffer that holds data changed it or wrote other data")
		}
		if _, err := conn.Conn().PgConn().CopyFrom(ctx, strings.NewReader(string(data)), "COPY copy_check (a, b, c, d, e) FROM STDIN BINARY"); err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(must(conn.Query(ctx, `SELECT a, b, c, d, e FROM copy_check ORDER BY b`)), func(r pgx.CollectableRow) ([]any, error) {
			var a string
			var b int64
			var c bool
			var d time.Time
			var e int32
			err := r.Scan(&a, &b, &c, &d, &e)
			return []any{a, b, c, d.UTC(), e}, err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]any{rows[0], rows[2], rows[1]}
		for i := range want {
			w := append([]any{}, want[i]...)
			w[3] = w[3].(time.Time).UTC()
			if !reflect.DeepEqual(got[i], w) {
				t.Errorf("row %d reads back %.80v, want %.80v", i, got[i], w)
			}
		}

		// A value of another Go type than its column's is an error, not a guess.
		if _, err := appendBinaryCopy(nil, types, [][]any{{"x", 1, true, time.Now(), int32(1)}}); err == nil {
			t.Error("an int for a bigint column was written")
		}
		if _, err := appendBinaryCopy(nil, types, [][]any{{"x", int64(1), true, time.Now()}}); err == nil {
			t.Error("a row of 4 values for 5 columns was written")
		}
	})
}

// A group's COPY data (a few MB) is written into a buffer grown once, to its exact size, not by
// doubling.
func TestBinaryCopyDataIsWrittenInOneAllocation(t *testing.T) {
	rows := make([][]any, 2000)
	for i := range rows {
		rows[i] = []any{"workspace", int64(i), "assets", strings.Repeat("r", 36), "client", int64(i), strings.Repeat("{}", 300), time.Now(), int32(i % 3)}
	}
	for _, set := range []copyRows{valueRows{copyColumns["sync_changes"], rows}, groupRows(t, 2000)[0], groupRows(t, 2000)[1]} {
		data := appendCopyData(nil, set)
		if n := testing.AllocsPerRun(5, func() { _ = appendCopyData(nil, set) }); n != 1 {
			t.Errorf("%T: writing the data allocated %v times, want once", set, n)
		}
		// No allocation into a buffer of exactly the data's size: the size was reckoned exactly.
		buf := make([]byte, 0, len(data))
		if n := testing.AllocsPerRun(5, func() { _ = appendCopyData(buf, set) }); n != 0 {
			t.Errorf("%T: writing the data into a buffer of its size allocated %v times, want none", set, n)
		}
	}
}

// The group commit's rows write the same COPY data as their values do through the column types
// (which TestBinaryCopyColumnsAreTheTables checks against the tables).
func TestGroupRowsWriteTheCopyDataOfTheirValues(t *testing.T) {
	tables := []string{"sync_records", "sync_changes"}
	for k, set := range groupRows(t, 50) {
		// appendBinaryCopy also checks that each value is of its column's Go type.
		want, err := appendBinaryCopy(nil, copyColumns[tables[k]], allValues(set))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCopyData(nil, set); !bytes.Equal(got, want) {
			t.Errorf("%s: the rows' own COPY data differs from their values' (%d and %d bytes)", tables[k], len(got), len(want))
		}
	}
}

// groupRows are n record rows and n change rows as a group commit writes them: accents, quotes,
// a deleted record, open conflicts, seqs and mutation ids of every size.
func groupRows(t *testing.T, n int) [2]rowSet {
	now := time.Date(2026, 11, 29, 1, 2, 3, 456789000, time.UTC)
	records := recordRows{now: now}
	changes := changeRows{now: now}
	for i := range n {
		key := recordKey{workspace: fmt.Sprintf("w-%d", i%3), collection: "assets", id: fmt.Sprintf("0197-%036d", i)}
		state := &RecordState{Fields: map[string]any{"name": fmt.Sprintf("Piso «%d» en \"Cádiz\"", i)}}
		if i%7 == 0 {
			state.Life = &Life{Deleted: true}
		}
		if i%5 == 0 {
			state.Conflicts = make([]Conflict, i%4+1)
		}
		encoded, _ := appendState(nil, state)
		seq := int64(i) << (i % 40)
		entry := &recordEntry{state: state, encoded: encoded, seq: seq}
		if i%11 == 3 {
			// A new record written only by its creating mutation (a put, or a delete).
			op := []Op{OpPut, OpDelete}[i%2]
			entry = &recordEntry{state: &noRecordState, created: Mutation{Op: op, Author: "client-ñ"}, hasCreated: true, encoded: encoded, seq: seq}
		}
		records.rows = append(records.rows, recordRow{key, entry})
		changes.rows = append(changes.rows, changeRow{key: key, seq: seq, client: "client-ñ", mutationID: int64(i) * 1e9, body: []byte(`{"op":"put","stamp":"x"}`), run: int32(i%3) << (i % 31)})
	}
	if !records.rows[0].r.state.Deleted() {
		t.Fatal("the rows hold no deleted record")
	}
	return [2]rowSet{records, changes}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The reference the group commit's rows are checked against: rows of Go values, each written as
// its column's Postgres type.

// pgColumn is the Postgres type of a column written by binary COPY.
type pgColumn int

const (
	pgText        pgColumn = iota // text: a string's bytes
	pgInt8                        // bigint: an int64, 8 bytes big-endian
	pgInt4                        // integer: an int32, 4 bytes big-endian
	pgBool                        // boolean: one byte
	pgTimestamptz                 // timestamptz: microseconds since 2000-01-01 UTC, 8 bytes
)

// copyColumns are the types of the columns (in recordColumns and changeColumns order) of the
// tables written by binary COPY (TestBinaryCopyColumnsAreTheTables: the tables' own).
var copyColumns = map[string][]pgColumn{
	"sync_records": {pgText, pgText, pgText, pgInt8, pgBool, pgInt8, pgText, pgTimestamptz},
	"sync_changes": {pgText, pgInt8, pgText, pgText, pgText, pgInt8, pgText, pgTimestamptz, pgInt4},
}

// appendBinaryCopy appends the COPY data of rows of Go values, or an error for a row of another
// width or a value of another Go type than its column's.
func appendBinaryCopy(b []byte, types []pgColumn, rows [][]any) ([]byte, error) {
	for i, row := range rows {
		if len(row) != len(types) {
			return nil, fmt.Errorf("binary copy: row %d has %d values for %d columns", i, len(row), len(types))
		}
		for c, v := range row {
			var ok bool
			switch types[c] {
			case pgText:
				_, ok = v.(string)
			case pgInt8:
				_, ok = v.(int64)
			case pgInt4:
				_, ok = v.(int32)
			case pgBool:
				_, ok = v.(bool)
			case pgTimestamptz:
				_, ok = v.(time.Time)
			}
			if !ok {
				return nil, fmt.Errorf("binary copy: row %d, column %d holds a %T", i, c, v)
			}
		}
	}
	return appendCopyData(b, valueRows{types, rows}), nil
}

// valueRows are rows of Go values, each of its column's type (appendBinaryCopy checks).
type valueRows struct {
	types []pgColumn
	rows  [][]any
}

func (r valueRows) count() int { return len(r.rows) }

func (r valueRows) values(i int) []any { return r.rows[i] }

func (r valueRows) tupleSize(i int) int {
	n := copyFieldsSize
	for c, v := range r.rows[i] {
		switch r.types[c] {
		case pgText:
			n += copyTextSize(v.(string))
		case pgInt8:
			n += copyInt8Size
		case pgInt4:
			n += copyInt4Size
		case pgBool:
			n += copyBoolSize
		case pgTimestamptz:
			n += copyTimestamptzSize
		}
	}
	return n
}

func (r valueRows) appendTuple(b []byte, i int) []byte {
	b = appendCopyFields(b, len(r.types))
	for c, v := range r.rows[i] {
		switch r.types[c] {
		case pgText:
			b = appendCopyText(b, v.(string))
		case pgInt8:
			b = appendCopyInt8(b, v.(int64))
		case pgInt4:
			b = appendCopyInt4(b, v.(int32))
		case pgBool:
			b = appendCopyBool(b, v.(bool))
		case pgTimestamptz:
			b = appendCopyTimestamptz(b, v.(time.Time))
		}
	}
	return b
}
