package account

import (
	"context"
	"errors"
	"log/slog"
	"sync"
)

// Delivering a mail over SMTP takes a connection, TLS, AUTH and DATA: 100 ms to seconds. Sent inside
// the request, it made the answers that mail (a password reset, a sign-up) slower for a known
// address than for an unknown one, which told the addresses apart although the answers are the
// same. A BackgroundMailer hands mails to a few workers instead: Send only queues, and a delivery
// that fails is logged by the worker (the request has been answered by then; the user can ask
// again). The log mailer, with the dev outbox, is instant and stays in the request, so that tests
// and development read a code as soon as the call answers.

// Sizes of the background queue: deliveries at once, and mails waiting.
const (
	mailWorkers   = 4
	mailQueueSize = 1000
)

// ErrMailQueueFull refuses a mail when the background queue is full; ErrMailerClosed one sent
// after Close. The account services log the refusal, like a failed delivery.
var (
	ErrMailQueueFull = errors.New("mail queue full: the mail was not sent")
	ErrMailerClosed  = errors.New("mailer closed: the mail was not sent")
)

type mailJob struct {
	ctx  context.Context
	mail Mail
}

// BackgroundMailer delivers through another Mailer after Send returns (see above). Its workers
// start with the first mail. Close it when the server stops, so that the queued mails go out.
type BackgroundMailer struct {
	next   Mailer
	logger *slog.Logger
	queue  chan mailJob
	start  sync.Once
	done   chan struct{} // closed when every worker has returned

	mu      sync.RWMutex // Send holds it shared, Close alone: no mail is queued after Close
	closed  bool
	started bool
}

// NewBackgroundMailer returns a mailer that delivers through next in the background; failures go
// to logger (nil: discarded).
func NewBackgroundMailer(next Mailer, logger *slog.Logger) *BackgroundMailer {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &BackgroundMailer{next: next, logger: logger, queue: make(chan mailJob, mailQueueSize), done: make(chan struct{})}
}

func (m *BackgroundMailer) startWorkers() {
	m.started = true
	var wg sync.WaitGroup
	for range mailWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range m.queue {
				if err := m.next.Send(job.ctx, job.mail); err != nil {
					m.logger.ErrorContext(job.ctx, "send e-mail", "purpose", job.mail.Purpose, "err", err)
				}
			}
		}()
	}
	go func() { wg.Wait(); close(m.done) }()
}

// Send queues mm and returns at once. The delivery keeps ctx's values (the request id in the logs)
// but not its end, which comes with the answer.
func (m *BackgroundMailer) Send(ctx context.Context, mm Mail) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return ErrMailerClosed
	}
	m.start.Do(m.startWorkers)
	select {
	case m.queue <- mailJob{ctx: context.WithoutCancel(ctx), mail: mm}:
		return nil
	default:
		return ErrMailQueueFull
	}
}

// Close stops taking mails and waits until the queued ones are delivered or ctx ends; then the
// mails still waiting are logged as lost and ctx's error is returned.
func (m *BackgroundMailer) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	close(m.queue)
	started := m.started
	m.mu.Unlock()
	if !started {
		return nil
	}
	select {
	case <-m.done:
		return nil
	case <-ctx.Done():
		m.logger.Error("mails not sent before the server stopped", "waiting", len(m.queue))
		return ctx.Err()
	}
}
