package sync

import (
	"encoding/binary"
	"fmt"
	"time"
)

// The group commit writes its new records and its change log with COPY in Postgres's binary
// format, written here: pgx's CopyFrom encodes each value through its type map (a plan per value)
// and grows a new buffer for every COPY, which cost the server more than writing the few types of
// these two tables by hand. A value of another Go type than its column's is an error, never a
// guess; TestBinaryCopyColumnsAreTheTables checks the column types against the database.

// pgColumn is the Postgres type of a column written by binary COPY.
type pgColumn int

const (
	pgText        pgColumn = iota // text: a string's bytes
	pgInt8                        // bigint: an int64, 8 bytes big-endian
	pgBool                        // boolean: one byte
	pgTimestamptz                 // timestamptz: microseconds since 2000-01-01 UTC, 8 bytes
)

// copyColumns are the types of the columns (in recordColumns and changeColumns order) of the
// tables written by binary COPY.
var copyColumns = map[string][]pgColumn{
	"sync_records": {pgText, pgText, pgText, pgInt8, pgBool, pgInt8, pgText, pgTimestamptz},
	"sync_changes": {pgText, pgInt8, pgText, pgText, pgText, pgInt8, pgText, pgTimestamptz},
}

// postgresEpochMicros is the zero of Postgres's binary timestamps, 2000-01-01 UTC, in Unix
// microseconds.
var postgresEpochMicros = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// appendBinaryCopy appends the COPY ... FROM STDIN BINARY data of rows (header, tuples, trailer).
func appendBinaryCopy(b []byte, types []pgColumn, rows [][]any) ([]byte, error) {
	b = append(b, "PGCOPY\n\xff\r\n\x00"...)
	b = binary.BigEndian.AppendUint32(b, 0) // flags
	b = binary.BigEndian.AppendUint32(b, 0) // header extension length
	for _, row := range rows {
		if len(row) != len(types) {
			return nil, fmt.Errorf("binary copy: a row of %d values for %d columns", len(row), len(types))
		}
		b = binary.BigEndian.AppendUint16(b, uint16(len(types)))
		for i, v := range row {
			var ok bool
			switch types[i] {
			case pgText:
				var s string
				if s, ok = v.(string); ok {
					b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
					b = append(b, s...)
				}
			case pgInt8:
				var n int64
				if n, ok = v.(int64); ok {
					b = binary.BigEndian.AppendUint32(b, 8)
					b = binary.BigEndian.AppendUint64(b, uint64(n))
				}
			case pgBool:
				var t bool
				if t, ok = v.(bool); ok {
					b = binary.BigEndian.AppendUint32(b, 1)
					if t {
						b = append(b, 1)
					} else {
						b = append(b, 0)
					}
				}
			case pgTimestamptz:
				var t time.Time
				if t, ok = v.(time.Time); ok {
					b = binary.BigEndian.AppendUint32(b, 8)
					b = binary.BigEndian.AppendUint64(b, uint64(t.UnixMicro()-postgresEpochMicros))
				}
			}
			if !ok {
				return nil, fmt.Errorf("binary copy: column %d holds a %T", i, v)
			}
		}
	}
	return binary.BigEndian.AppendUint16(b, 0xffff), nil // trailer: -1
}
