package connect

// Positions of connected brokerage accounts. Each position the broker reports becomes its own
// synced investment asset (written by the server as its own sync client, validated by the shared
// schema like any push): name, symbol, market, ISIN where the provider has it, quantity, and the
// value units × price as the asset's current value and as a dated valuation. The account's own
// asset then carries only its cash, so the dashboard counts every euro once. Positions are matched
// on every read by their account and their ISIN (else their symbol); one the broker no longer
// reports is set to quantity 0 and value 0 (sold), never deleted. The mapping of position to asset
// lives in connection_positions (migrations 0015), which follows the account row across consent
// renewals.

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
)

// Position is one position of a connection's account, as the API shows it. The values are those
// of the last read; the asset holds them too, on every device.
type Position struct {
	Symbol   string `json:"symbol"`
	Name     string `json:"name"`
	Units    string `json:"units"`
	Price    string `json:"price"`
	Currency string `json:"currency"`
	Value    string `json:"value"`
	Date     string `json:"date"`
	// Status is open (held) or closed (sold: the broker no longer reports it).
	Status  string  `json:"status"`
	AssetID *string `json:"assetId"`
}

// positionCategory is the investments category of an instrument kind (SnapTrade's kinds).
func positionCategory(kind string) string {
	switch strings.ToLower(kind) {
	case "stock", "adr", "cef":
		return "equity"
	case "etf", "mutualfund":
		return "fund"
	case "bond":
		return "fixed_income"
	case "option", "future", "cfd":
		return "derivatives"
	}
	return "alternative_investment"
}

// positionMatch is what identifies a position within its account across reads.
func positionMatch(h Holding) string {
	if isin := strings.ToUpper(strings.TrimSpace(h.ISIN)); schema.ValidISIN(isin) {
		return "isin:" + isin
	}
	return "symbol:" + strings.ToUpper(strings.TrimSpace(h.Symbol))
}

// cashBalance is what the account's own asset carries when its positions are assets of their
// own: the cash balance in the account's currency; without one, the total less the positions
// when they are all in that currency. ok is false when neither can be told.
func cashBalance(balances []Balance, currency string, holdings []Holding) (Balance, bool) {
	for _, b := range balances {
		if b.Type == "cash" && b.Currency == currency {
			return b, true
		}
	}
	for _, b := range balances {
		if b.Type != "total" || b.Currency != currency {
			continue
		}
		cash := b.Amount
		for _, h := range holdings {
			if h.Currency != currency {
				return Balance{}, false
			}
			cash = cash.Sub(h.Value())
		}
		return Balance{Amount: cash, Currency: currency, Date: b.Date, Type: "cash"}, true
	}
	return Balance{}, false
}

type positionRow struct {
	id, matchKey, assetID, status string
	valueDate                     string
	lastValuation                 sql.NullString
}

// writeChunk is how many changes one server write carries (a push holds at most 500).
const writeChunk = 100

// writePositions writes the account's positions as assets (new ones created, known ones
// updated, vanished ones set to zero) and records them in connection_positions.
func (s *Service) writePositions(ctx context.Context, c connectionRow, a accountRow, holdings []Holding, now time.Time) error {
	today := now.Format(time.DateOnly)
	rows, err := s.db.Query(ctx, `SELECT id, match_key, asset_id, status, value_date, last_valuation_id FROM connection_positions WHERE account_id = ?`, a.id)
	if err != nil {
		return err
	}
	known := map[string]positionRow{}
	for rows.Next() {
		var p positionRow
		if err := rows.Scan(&p.id, &p.matchKey, &p.assetID, &p.status, &p.valueDate, &p.lastValuation); err != nil {
			rows.Close()
			return err
		}
		known[p.matchKey] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	type update struct {
		row                                  positionRow
		symbol, name, units, price, currency string
		value                                string
	}
	var changes []psync.ServerChange
	var updates []update
	seen := map[string]bool{}
	valuation := func(p positionRow, value, currency string) (string, error) {
		id := valuationID(p.assetID, today, "connection")
		if p.lastValuation.Valid && p.valueDate == today {
			id = p.lastValuation.String // one written before ids were derived
		}
		changes = append(changes, psync.ServerChange{Collection: "valuations", RecordID: id, Fields: map[string]any{
			"assetId": p.assetID, "date": today, "value": value, "currency": currency, "source": "connection",
		}})
		return id, nil
	}
	for _, h := range holdings {
		key := positionMatch(h)
		value := h.Value().Round(4)
		// A short position (negative units) is a debt, not a value of an asset, and a position
		// without units tells nothing: neither is written.
		if key == "symbol:" || seen[key] || !h.Units.IsPositive() {
			continue
		}
		seen[key] = true
		// Without a price this time the asset keeps its last value (and is not taken as sold);
		// a new position waits for its first price.
		if !h.Price.IsPositive() {
			continue
		}
		currency := strings.ToUpper(h.Currency)
		if currency == "" {
			currency = a.currency
		}
		units, price := h.Units.Round(18).String(), h.Price.String()
		name := truncate(firstNonEmpty(h.Description, h.Symbol), 140)
		p, ok := known[key]
		if ok && p.status != "creating" && p.status != "dismissed" {
			// A member deleted the asset: the position no longer feeds it. One marked sold is left
			// alone until the sale is undone.
			exists, held, err := s.assetState(ctx, c.WorkspaceID, p.assetID)
			if err != nil {
				return err
			}
			if !exists {
				if _, err := s.db.Exec(ctx, `UPDATE connection_positions SET status = 'dismissed' WHERE id = ?`, p.id); err != nil {
					return err
				}
				continue
			}
			if !held {
				continue
			}
		}
		if ok && p.status == "dismissed" {
			continue
		}
		if !ok || p.status == "creating" {
			if !ok {
				id, err := uuid.NewV7()
				if err != nil {
					return err
				}
				assetID, err := uuid.NewV7()
				if err != nil {
					return err
				}
				p = positionRow{id: id.String(), matchKey: key, assetID: assetID.String(), status: "creating"}
				// The row exists before the asset is written: a write that fails half way is
				// finished by the next read with the same record id, never duplicated.
				if _, err := s.db.Exec(ctx, `INSERT INTO connection_positions (id, account_id, match_key, symbol, name, asset_id, status, units, price, currency, value, value_date)
					VALUES (?, ?, ?, ?, ?, ?, 'creating', ?, ?, ?, ?, ?)`, p.id, a.id, key, h.Symbol, name, p.assetID, units, price, currency, value.String(), today); err != nil {
					return fmt.Errorf("connect: record a position: %w", err)
				}
			}
			fields := map[string]any{"name": name, "assetClass": "investments", "category": positionCategory(h.Kind), "currency": currency,
				"participation": "100", "institution": truncate(a.institution, 140), "quantity": units,
				"currentValue": value.String(), "valuationDate": today,
				"description": truncate(strings.TrimSpace(h.Symbol+" · "+a.name), 256)}
			if h.Exchange != "" {
				fields["market"] = truncate(h.Exchange, 100)
			}
			if isin := strings.TrimPrefix(key, "isin:"); isin != key {
				fields["isin"] = isin
			}
			if k := strings.ToLower(h.Kind); (k == "stock" || k == "adr") && h.Description != "" {
				fields["issuingCompany"] = truncate(h.Description, 140)
			}
			if h.CostBasis.IsPositive() {
				fields["purchaseValue"] = h.Units.Mul(h.CostBasis).Round(4).String()
			}
			changes = append(changes, psync.ServerChange{Collection: "assets", RecordID: p.assetID, Fields: fields})
		} else {
			changes = append(changes, psync.ServerChange{Collection: "assets", RecordID: p.assetID, Fields: map[string]any{
				"quantity": units, "currentValue": value.String(), "valuationDate": today,
			}})
		}
		id, err := valuation(p, value.String(), currency)
		if err != nil {
			return err
		}
		p.lastValuation = sql.NullString{String: id, Valid: true}
		p.status = "open" // also a position sold before and bought again
		updates = append(updates, update{row: p, symbol: h.Symbol, name: name, units: units, price: price, currency: currency, value: value.String()})
	}
	// Positions the broker no longer reports were sold: quantity and value zero, kept.
	for key, p := range known {
		if seen[key] || p.status != "open" {
			continue
		}
		exists, held, err := s.assetState(ctx, c.WorkspaceID, p.assetID)
		if err != nil {
			return err
		}
		if !exists {
			if _, err := s.db.Exec(ctx, `UPDATE connection_positions SET status = 'dismissed' WHERE id = ?`, p.id); err != nil {
				return err
			}
			continue
		}
		if !held {
			// Marked sold by a member (with its own sale amount): not zeroed over it.
			continue
		}
		var currency string
		if err := s.db.QueryRow(ctx, `SELECT currency FROM connection_positions WHERE id = ?`, p.id).Scan(&currency); err != nil {
			return err
		}
		changes = append(changes, psync.ServerChange{Collection: "assets", RecordID: p.assetID, Fields: map[string]any{
			"quantity": "0", "currentValue": "0", "valuationDate": today,
		}})
		id, err := valuation(p, "0", currency)
		if err != nil {
			return err
		}
		p.lastValuation = sql.NullString{String: id, Valid: true}
		p.status = "closed"
		updates = append(updates, update{row: p, units: "0", value: "0", currency: currency})
	}
	for start := 0; start < len(changes); start += writeChunk {
		if _, err := s.cfg.Sync.WriteAsServer(ctx, c.UserID, c.WorkspaceID, changes[start:min(start+writeChunk, len(changes))]); err != nil {
			return err
		}
	}
	for _, u := range updates {
		var err error
		if u.row.status == "closed" {
			_, err = s.db.Exec(ctx, `UPDATE connection_positions SET status = 'closed', units = '0', value = '0', value_date = ?, last_valuation_id = ? WHERE id = ?`,
				today, u.row.lastValuation.String, u.row.id)
		} else {
			_, err = s.db.Exec(ctx, `UPDATE connection_positions SET status = 'open', symbol = ?, name = ?, units = ?, price = ?, currency = ?, value = ?, value_date = ?, last_valuation_id = ?
				WHERE id = ?`, u.symbol, u.name, u.units, u.price, u.currency, u.value, today, u.row.lastValuation.String, u.row.id)
		}
		if err != nil {
			return fmt.Errorf("connect: record a position: %w", err)
		}
	}
	return nil
}

// positions lists an account's positions for the API: held ones first, by value.
func (s *Service) positions(ctx context.Context, accountID string) ([]Position, error) {
	rows, err := s.db.Query(ctx, `SELECT symbol, name, units, price, currency, value, value_date, status, asset_id
		FROM connection_positions WHERE account_id = ? AND status IN ('open', 'closed') ORDER BY status DESC, name, symbol`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Position{}
	for rows.Next() {
		var p Position
		var asset string
		if err := rows.Scan(&p.Symbol, &p.Name, &p.Units, &p.Price, &p.Currency, &p.Value, &p.Date, &p.Status, &asset); err != nil {
			return nil, err
		}
		p.AssetID = &asset
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Held positions by value, largest first (values are exact decimals: compared as such).
	sortPositions(out)
	return out, nil
}

func sortPositions(list []Position) {
	value := func(p Position) decimal.Decimal {
		d, err := decimal.NewFromString(p.Value)
		if err != nil {
			return decimal.Zero
		}
		return d
	}
	slices.SortStableFunc(list, func(a, b Position) int {
		if a.Status != b.Status {
			return strings.Compare(b.Status, a.Status) // open before closed
		}
		return value(b).Cmp(value(a))
	})
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
