package connect_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"patrimonio/server/connect"
)

func TestBalanceHistoryCountsBackFromTheBookedBalance(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	amount := decimal.RequireFromString
	balance := connect.Balance{Amount: amount("1000.00"), Currency: "EUR", Date: day("2026-11-27"), Type: "CLBD"}
	tx := func(date, amt, currency string, status connect.TransactionStatus) connect.Transaction {
		return connect.Transaction{Date: day(date), Amount: amount(amt), Currency: currency, Status: status}
	}
	tests := []struct {
		name   string
		txs    []connect.Transaction
		want   map[string]string
		wantOK bool
	}{
		{"no movements give no history", nil, map[string]string{}, true},
		{
			"two movements on one day are one day's end; the balance's own day is not repeated",
			[]connect.Transaction{tx("2026-11-27", "-20", "EUR", connect.Booked), tx("2026-11-26", "0.10", "EUR", connect.Booked), tx("2026-11-26", "0.20", "EUR", connect.Booked)},
			map[string]string{"2026-11-26": "1020", "2026-11-25": "1019.7"},
			true,
		},
		{
			"pending movements and movements after the balance's date are not in it",
			[]connect.Transaction{tx("2026-11-20", "-5", "EUR", connect.Pending), tx("2026-11-28", "300", "EUR", connect.Booked), tx("2026-11-10", "-100", "EUR", connect.Booked)},
			map[string]string{"2026-11-10": "1000", "2026-11-09": "1100"},
			true,
		},
		{
			"a movement in another currency cannot be counted: no history",
			[]connect.Transaction{tx("2026-11-10", "-100", "USD", connect.Booked)},
			nil,
			false,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			days, ok := connect.BalanceHistory(balance, tc.txs)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				return
			}
			got := map[string]string{}
			for i, d := range days {
				got[d.Date.Format(time.DateOnly)] = d.Amount.String()
				if i > 0 && !days[i-1].Date.Before(d.Date) {
					t.Errorf("not oldest first: %v", days)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("history %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s: %s, want %s", k, got[k], v)
				}
			}
		})
	}
}
