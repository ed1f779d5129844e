package account_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"patrimonio/internal/testkit"
	"patrimonio/server/account"
)

// gatedMailer delivers once its gate opens, and fails the mails to fail@.
type gatedMailer struct {
	gate chan struct{}
	sent atomic.Int64
}

func (m *gatedMailer) Send(_ context.Context, mm account.Mail) error {
	<-m.gate
	if strings.HasPrefix(mm.To, "fail@") {
		return errors.New("smtp: 550 mailbox unavailable")
	}
	m.sent.Add(1)
	return nil
}

func TestTheBackgroundMailerQueuesDeliversAndLogsFailures(t *testing.T) {
	logs := &testkit.Buffer{}
	inner := &gatedMailer{gate: make(chan struct{})}
	m := account.NewBackgroundMailer(inner, slog.New(slog.NewTextHandler(logs, nil)))
	// Send returns before the delivery, and the request's end does not cancel it.
	ctx, cancel := context.WithCancel(context.Background())
	for _, to := range []string{"ana@example.com", "fail@example.com"} {
		if err := m.Send(ctx, account.Mail{To: to, Purpose: "reset_password"}); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	close(inner.gate)
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if inner.sent.Load() != 1 {
		t.Fatalf("%d mails delivered, want 1", inner.sent.Load())
	}
	if l := logs.String(); !strings.Contains(l, "send e-mail") || !strings.Contains(l, "550 mailbox unavailable") || !strings.Contains(l, "reset_password") {
		t.Fatalf("the failure is not logged:\n%s", l)
	}
	if err := m.Send(context.Background(), account.Mail{To: "late@example.com"}); !errors.Is(err, account.ErrMailerClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestTheBackgroundMailerRefusesWhenFullAndSaysWhatCloseLeftUnsent(t *testing.T) {
	logs := &testkit.Buffer{}
	inner := &gatedMailer{gate: make(chan struct{})} // never opens: every delivery hangs
	m := account.NewBackgroundMailer(inner, slog.New(slog.NewTextHandler(logs, nil)))
	var full error
	for i := 0; i < 5000 && full == nil; i++ {
		full = m.Send(context.Background(), account.Mail{To: "ana@example.com"})
	}
	if !errors.Is(full, account.ErrMailQueueFull) {
		t.Fatalf("a full queue: %v", full)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := m.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with deliveries hanging: %v", err)
	}
	if !strings.Contains(logs.String(), "mails not sent before the server stopped") {
		t.Fatalf("the unsent mails are not logged:\n%s", logs)
	}
	close(inner.gate) // let the workers end
}

func TestABackgroundMailerThatSentNothingClosesAtOnce(t *testing.T) {
	m := account.NewBackgroundMailer(&gatedMailer{gate: make(chan struct{})}, nil)
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}
