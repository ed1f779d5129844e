package core

import (
	"context"
	"log/slog"
)

// requestIDKey is the private context key of the request id.
type requestIDKey struct{}

// WithRequestID returns a context that carries the id of the HTTP request (or socket message) being
// served. Loggers built with NewLogHandler add it to every record logged with that context.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id carried by ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// NewLogHandler wraps h so that records logged with a context carrying a request id get a
// "request_id" attribute. Use the *Context logging methods (InfoContext, ErrorContext, ...).
func NewLogHandler(h slog.Handler) slog.Handler { return contextHandler{h} }

type contextHandler struct{ next slog.Handler }

func (h contextHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h contextHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.next.Handle(ctx, r)
}

func (h contextHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return contextHandler{h.next.WithAttrs(attrs)}
}

func (h contextHandler) WithGroup(name string) slog.Handler {
	return contextHandler{h.next.WithGroup(name)}
}
