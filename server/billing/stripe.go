package billing

// The adapter to Stripe: every call billing makes to Stripe's API goes through stripe-go's client
// here, and every error it returns is translated into our error codes with a message a person
// can read (translate). Stripe's own message is logged for the operator, never shown.

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v85"

	"patrimonio/core"
)

// newStripeClient returns stripe-go's client for key, talking to apiURL ("" = Stripe itself). The
// library's own logger is silenced (we log what matters, without secrets); it retries a failed
// network call once (with an idempotency key on every POST, so a retry never charges twice).
func newStripeClient(key, apiURL string) *stripe.Client {
	cfg := &stripe.BackendConfig{
		HTTPClient:        &http.Client{Timeout: 20 * time.Second},
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
		MaxNetworkRetries: stripe.Int64(1),
		EnableTelemetry:   stripe.Bool(false),
	}
	if apiURL != "" {
		cfg.URL = stripe.String(apiURL)
	}
	return stripe.NewClient(key, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))
}

// translate turns an error of a Stripe call (op names it in the log) into a *core.Error worded
// in the request's language. Authentication failures (a wrong or revoked key) are logged as
// errors: the operator must act; the rest as warnings.
func (s *Service) translate(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.stripe.unreachable")
	}
	var se *stripe.Error
	if !errors.As(err, &se) {
		// No answer from Stripe: the network, DNS, a timeout.
		s.logger.WarnContext(ctx, "stripe unreachable", "op", op, "err", err)
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.stripe.unreachable")
	}
	attrs := []any{"op", op, "status", se.HTTPStatusCode, "type", string(se.Type), "code", string(se.Code),
		"param", se.Param, "stripe_message", se.Msg, "stripe_request_id", se.RequestID}
	switch {
	case se.HTTPStatusCode == http.StatusUnauthorized || se.HTTPStatusCode == http.StatusForbidden:
		s.logger.ErrorContext(ctx, "stripe refused the API key: check PATRIMONIO_STRIPE_SECRET_KEY", attrs...)
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.stripe.misconfigured")
	case se.HTTPStatusCode == http.StatusTooManyRequests || se.Code == stripe.ErrorCodeRateLimit:
		s.logger.WarnContext(ctx, "stripe rate limit", attrs...)
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.stripe.busy")
	case se.Type == stripe.ErrorTypeCard:
		s.logger.InfoContext(ctx, "stripe card error", attrs...)
		return core.Refuse(ctx, core.EINVALID, "billing.stripe.card")
	case se.Type == stripe.ErrorTypeIdempotency || se.HTTPStatusCode == http.StatusConflict:
		s.logger.WarnContext(ctx, "stripe idempotency conflict", attrs...)
		return core.Refuse(ctx, core.ECONFLICT, "billing.stripe.conflict")
	case se.HTTPStatusCode == http.StatusNotFound || se.Code == stripe.ErrorCodeResourceMissing:
		s.logger.WarnContext(ctx, "stripe resource missing", attrs...)
		return core.Refuse(ctx, core.ENOTFOUND, "billing.stripe.notFound")
	case se.HTTPStatusCode >= 500 || se.Type == stripe.ErrorTypeAPI:
		s.logger.WarnContext(ctx, "stripe failed", attrs...)
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.stripe.unreachable")
	}
	s.logger.WarnContext(ctx, "stripe refused a request", attrs...)
	return core.Refuse(ctx, core.EINVALID, "billing.stripe.refused")
}
