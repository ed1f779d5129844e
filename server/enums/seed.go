package enums

import (
	"bytes"
	"context"
	"embed"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// SeedVersion is the version of the data files in data/. Raise it when they change: Seed then
// inserts the values that are new (by id) and leaves every existing row as it is, so admins'
// edits survive.
const SeedVersion = 1

//go:embed data/*.csv
var dataFiles embed.FS

// seedRow is one value of the data files, its parent named by (type, code).
type seedRow struct {
	Value
	parentType, parentCode string
}

// seedRows reads the embedded data files in insertion order (every parent before its children).
func seedRows() ([]seedRow, error) {
	var out []seedRow
	read := func(name string, each func(rec map[string]string) (seedRow, error)) error {
		b, err := dataFiles.ReadFile("data/" + name)
		if err != nil {
			return err
		}
		r := csv.NewReader(bytes.NewReader(b))
		header, err := r.Read()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for line := 2; ; line++ {
			cells, err := r.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			rec := map[string]string{}
			for i, h := range header {
				rec[h] = cells[i]
			}
			row, err := each(rec)
			if err != nil {
				return fmt.Errorf("%s line %d: %w", name, line, err)
			}
			out = append(out, row)
		}
	}
	id := func(rec map[string]string) (int64, error) { return strconv.ParseInt(rec["id"], 10, 64) }
	order := map[string]int{} // next position per parent
	next := func(parent string) int { order[parent]++; return order[parent] }

	err := read("fixed.csv", func(rec map[string]string) (seedRow, error) {
		n, err := id(rec)
		row := seedRow{Value: Value{ID: n, Type: rec["type"], Code: rec["code"], Level: rec["type"], LabelES: rec["es"], LabelEN: rec["en"], Active: true}}
		if rec["parent"] != "" {
			row.parentType, row.parentCode = ParentTypes[rec["type"]][0], rec["parent"]
		}
		row.Order = next(rec["type"] + "/" + rec["parent"])
		return row, err
	})
	if err == nil {
		err = read("currencies.csv", func(rec map[string]string) (seedRow, error) {
			n, err := id(rec)
			return seedRow{Value: Value{ID: n, Type: TypeCurrency, Code: rec["code"], Level: TypeCurrency, LabelES: rec["es"], LabelEN: rec["en"], Order: next("currency"), Active: true}}, err
		})
	}
	if err == nil {
		err = read("countries.csv", func(rec map[string]string) (seedRow, error) {
			n, err := id(rec)
			return seedRow{Value: Value{ID: n, Type: TypeCountry, Code: rec["code"], Level: TypeCountry, LabelES: rec["es"], LabelEN: rec["en"], Order: next("country"), Active: true}}, err
		})
	}
	if err != nil {
		return nil, err
	}
	// Subdivisions; loadSeed places each after its parent.
	err = read("states.csv", func(rec map[string]string) (seedRow, error) {
		n, err := id(rec)
		row := seedRow{Value: Value{ID: n, Type: TypeState, Code: rec["code"], Level: rec["level"], LabelES: rec["es"], LabelEN: rec["en"], Order: next(rec["parent"]), Active: true}}
		row.parentType, row.parentCode = TypeState, rec["parent"]
		if !strings.Contains(rec["parent"], "-") {
			row.parentType = TypeCountry
		}
		return row, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// loadSeed returns the seed values with their parent ids resolved, parents first.
func loadSeed() ([]Value, error) {
	rows, err := seedRows()
	if err != nil {
		return nil, err
	}
	ids := map[string]int64{}
	seen := map[int64]bool{}
	var out []Value
	pending := rows
	for len(pending) > 0 {
		var later []seedRow
		for _, r := range pending {
			if r.parentCode != "" {
				pid, ok := ids[r.parentType+"/"+r.parentCode]
				if !ok {
					later = append(later, r)
					continue
				}
				r.ParentID = pid
			}
			key := r.Type + "/" + r.Code
			if _, dup := ids[key]; dup {
				return nil, fmt.Errorf("seed: %s %s appears twice", r.Type, r.Code)
			}
			if seen[r.ID] {
				return nil, fmt.Errorf("seed: id %d appears twice", r.ID)
			}
			ids[key], seen[r.ID] = r.ID, true
			out = append(out, r.Value)
		}
		if len(later) == len(pending) {
			return nil, fmt.Errorf("seed: %s %s has an unknown parent %s", later[0].Type, later[0].Code, later[0].parentCode)
		}
		pending = later
	}
	return out, nil
}

// Seed inserts the values of the data files that the database lacks (by id) when it has not
// applied SeedVersion yet. It runs at start; several servers may run it at once.
func (s *Service) Seed(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Taking the row lock first serialises concurrent seeders on Postgres (SQLite's BEGIN
	// IMMEDIATE already did).
	if _, err := tx.Exec(ctx, `UPDATE enum_meta SET seed_version = seed_version WHERE id = 1`); err != nil {
		return fmt.Errorf("seed enums: %w", err)
	}
	var version int
	if err := tx.QueryRow(ctx, `SELECT seed_version FROM enum_meta WHERE id = 1`).Scan(&version); err != nil {
		return fmt.Errorf("seed enums: read version: %w", err)
	}
	if version >= SeedVersion {
		return nil
	}
	values, err := loadSeed()
	if err != nil {
		return err
	}
	now := s.Now().UTC()
	const batch = 200
	for start := 0; start < len(values); start += batch {
		end := min(start+batch, len(values))
		var q strings.Builder
		q.WriteString(`INSERT INTO enums (id, type, code, parent_id, level, label_es, label_en, sort_order, active, updated_at) VALUES `)
		args := make([]any, 0, (end-start)*10)
		for i, v := range values[start:end] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, v.ID, v.Type, v.Code, nullID(v.ParentID), v.Level, v.LabelES, v.LabelEN, v.Order, v.Active, now)
		}
		q.WriteString(` ON CONFLICT DO NOTHING`)
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("seed enums: insert: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE enum_meta SET seed_version = ? WHERE id = 1`, SeedVersion); err != nil {
		return fmt.Errorf("seed enums: record version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("seed enums: commit: %w", err)
	}
	return nil
}
