package connect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Retrying is the HTTP client the providers share: it retries a 429 answer after the
// Retry-After the provider asked for (at most MaxAttempts tries in all, and only when the wait
// is at most MaxWait); past that it gives up with a *RateLimitError carrying the wait, so the
// caller can tell the user when to try again.
type Retrying struct {
	HTTP        *http.Client
	MaxAttempts int           // 3
	MaxWait     time.Duration // 30 s: a longer wait is not slept through in a request
	// Sleep waits (tests make it record instead of sleeping).
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetrying is a Retrying with the defaults and a 30-second timeout per request.
func DefaultRetrying() *Retrying {
	return &Retrying{HTTP: &http.Client{Timeout: 30 * time.Second}}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do sends the request built by build (called once per attempt, so bodies and signatures are
// fresh) and returns the first answer that is not a 429. The caller closes its body.
func (r *Retrying) Do(ctx context.Context, build func() (*http.Request, error)) (*http.Response, error) {
	attempts, maxWait, sleep := r.MaxAttempts, r.MaxWait, r.Sleep
	if attempts <= 0 {
		attempts = 3
	}
	if maxWait <= 0 {
		maxWait = 30 * time.Second
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	client := r.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	for attempt := 1; ; attempt++ {
		req, err := build()
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req.WithContext(ctx))
		if err != nil {
			return nil, transportError(req, err)
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		wait := RetryAfter(resp.Header.Get("Retry-After"), time.Now())
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if attempt >= attempts || wait > maxWait {
			return nil, &RateLimitError{RetryAfter: wait}
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// transportError names a failed request by its method and path only. The *url.Error the client
// answers with quotes the whole URL, and a provider may carry a secret in its query (SnapTrade's
// userSecret): its text must never reach a log or an error.
func transportError(req *http.Request, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
}

// RetryAfter reads a Retry-After header: seconds or an HTTP date. Missing or unreadable: 1 s.
func RetryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return time.Second
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 {
			return d.Round(time.Second)
		}
		return 0
	}
	return time.Second
}

// ReadAnswer reads a provider's answer (at most 8 MiB) and closes it; an answer other than 2xx is
// turned into an error by translate, which knows the provider's error body.
func ReadAnswer(resp *http.Response, translate func(status int, raw []byte) error) ([]byte, error) {
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("read the answer to %s %s: %w", resp.Request.Method, resp.Request.URL.Path, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, translate(resp.StatusCode, raw)
	}
	return raw, nil
}
