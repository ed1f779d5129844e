package connect

// The balance history of a newly linked bank account. On the account's first read after it
// became an asset, its booked transactions of the last HistoryDays are read once and turned into
// the end-of-day balance of each day with movements (and of the day before the first one),
// counted back from the bank's booked balance: dated valuations of the asset, source
// "connection", like those a statement import makes, so the asset's charts start with its
// history instead of one point. Pending transactions are not in a booked balance and are left
// out; so is everything when the bank gives no booked balance (CLBD, ITBD) or a movement in
// another currency. A statement imported later on a device skips a day whose balance is already
// a valuation of the same value (pwa/src/import), so the two never count a day twice. The
// transactions themselves are not stored: the app has no collection for movements.

import (
	"context"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	psync "patrimonio/sync"
)

// HistoryDays is how far back a new bank account's history is read (PSD2 banks give 90 days of
// transactions without a fresh strong authentication).
const HistoryDays = 90

// bookedBalance is a balance that counts booked movements only, in the account's currency.
func bookedBalance(balances []Balance, currency string) (Balance, bool) {
	for _, b := range balances {
		if (b.Type == "CLBD" || b.Type == "ITBD") && b.Currency == currency && !b.Date.IsZero() {
			return b, true
		}
	}
	return Balance{}, false
}

// DayBalance is the balance at the end of a day.
type DayBalance struct {
	Date   time.Time
	Amount decimal.Decimal
}

// BalanceHistory counts back from a booked balance through the booked transactions before its
// date: the end-of-day balance of each day with movements, and of the day before the first one,
// oldest first. ok is false when a movement is in another currency (it cannot be counted).
func BalanceHistory(balance Balance, txs []Transaction) (days []DayBalance, ok bool) {
	byDay := map[time.Time]decimal.Decimal{}
	for _, t := range txs {
		if t.Status != Booked || t.Date.IsZero() || t.Date.After(balance.Date) {
			continue
		}
		if t.Currency != "" && t.Currency != balance.Currency {
			return nil, false
		}
		byDay[t.Date] = byDay[t.Date].Add(t.Amount)
	}
	dates := make([]time.Time, 0, len(byDay))
	for d := range byDay {
		dates = append(dates, d)
	}
	// Newest first: each day's end is the next (later) day's end less that later day's movements.
	sort.Slice(dates, func(i, j int) bool { return dates[i].After(dates[j]) })
	amount := balance.Amount
	later := balance.Date
	for _, d := range dates {
		if d.Before(later) {
			days = append(days, DayBalance{Date: d, Amount: amount})
		}
		amount = amount.Sub(byDay[d])
		later = d
	}
	if len(dates) > 0 {
		days = append(days, DayBalance{Date: dates[len(dates)-1].AddDate(0, 0, -1), Amount: amount})
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Date.Before(days[j].Date) })
	return days, true
}

// writeHistory reads the account's booked transactions once and writes the balances before the
// bank's balance date as valuations (never a negative one: an overdraft is not a value).
func (s *Service) writeHistory(ctx context.Context, p Provider, creds Credentials, c connectionRow, a accountRow, balances []Balance) error {
	b, ok := bookedBalance(balances, a.currency)
	if ok {
		txs, err := p.Transactions(ctx, creds, a.providerID, b.Date.AddDate(0, 0, -HistoryDays))
		if err != nil {
			return err
		}
		days, counted := BalanceHistory(b, txs)
		var changes []psync.ServerChange
		for _, d := range days {
			if !counted || d.Amount.IsNegative() {
				continue
			}
			date := d.Date.Format(time.DateOnly)
			changes = append(changes, psync.ServerChange{Collection: "valuations", RecordID: valuationID(a.assetID, date, "connection"), Fields: map[string]any{
				"assetId": a.assetID, "date": date, "value": d.Amount.Round(4).String(), "currency": b.Currency, "source": "connection",
			}})
		}
		for start := 0; start < len(changes); start += writeChunk {
			if _, err := s.cfg.Sync.WriteAsServer(ctx, c.UserID, c.WorkspaceID, changes[start:min(start+writeChunk, len(changes))]); err != nil {
				return err
			}
		}
	}
	_, err := s.db.Exec(ctx, `UPDATE connection_accounts SET history_read = 1 WHERE id = ?`, a.id)
	return err
}
