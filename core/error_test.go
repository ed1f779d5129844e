package core_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"patrimonio/core"
)

func TestErrorCodeAndMessage(t *testing.T) {
	tests := []struct {
		name        string
		err         error
		wantCode    string
		wantMessage string
	}{
		{name: "a nil error has no code and no message", err: nil},
		{name: "an Error shows its code and message", err: core.Errorf(core.ENOTFOUND, "Asset %s not found.", "a1"), wantCode: core.ENOTFOUND, wantMessage: "Asset a1 not found."},
		{name: "a wrapped Error keeps its code and message", err: fmt.Errorf("load asset: %w", core.Errorf(core.ECONFLICT, "Changed meanwhile.")), wantCode: core.ECONFLICT, wantMessage: "Changed meanwhile."},
		{name: "a plain error is internal with a generic message", err: errors.New("pq: password authentication failed for user app"), wantCode: core.EINTERNAL, wantMessage: "Internal error."},
		{name: "an internal Error never shows its own message", err: core.Errorf(core.EINTERNAL, "disk /dev/sda1 full"), wantCode: core.EINTERNAL, wantMessage: "Internal error."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := core.ErrorCode(tt.err); got != tt.wantCode {
				t.Errorf("ErrorCode = %q, want %q", got, tt.wantCode)
			}
			if got := core.ErrorMessage(tt.err); got != tt.wantMessage {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.wantMessage)
			}
		})
	}
}

func TestLogHandlerAddsTheRequestIDFromTheContext(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(core.NewLogHandler(slog.NewTextHandler(&buf, nil)))

	logger.InfoContext(core.WithRequestID(context.Background(), "req-42"), "hello")
	logger.InfoContext(context.Background(), "no id")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines: %q", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], "request_id=req-42") {
		t.Errorf("first line lacks the request id: %s", lines[0])
	}
	if strings.Contains(lines[1], "request_id") {
		t.Errorf("second line has a request id: %s", lines[1])
	}
	if got := core.RequestID(core.WithRequestID(context.Background(), "x")); got != "x" {
		t.Errorf("RequestID = %q", got)
	}
}
