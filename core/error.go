// Package core is what every Go package of Patrimonio shares, and nothing else: the error type with
// its codes, the language of user-visible messages, the request id carried in contexts and logs, the
// normal form of a web origin, the bucket a client IP is counted in by per-client limits, and the
// build's version. It imports nothing of ours and no database, HTTP or other technology package, so
// that the server (server/...) and the sync engine (sync/) can both sit on it without depending on
// each other. The configuration is in server/config, where the server is wired; database dialects
// are in server/store.
package core

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. Each code says what kind of failure happened; the HTTP layer turns a code into a
// status in one map, and the client turns it into a translated message.
const (
	EINVALID      = "invalid"      // the request or its data is malformed or breaks a rule
	ENOTFOUND     = "not_found"    // the thing asked for does not exist (or is not visible)
	ECONFLICT     = "conflict"     // the request conflicts with the current state
	EUNAUTHORIZED = "unauthorized" // no valid session
	EFORBIDDEN    = "forbidden"    // a session, but not allowed to do this
	ETOOLARGE     = "too_large"    // the request body or a value is over its limit
	EMETHOD       = "method_not_allowed"
	ETOOMANY      = "too_many_requests"
	EUNAVAILABLE  = "unavailable" // a dependency (database, web app build) is not available right now
	EINTERNAL     = "internal"    // a bug or an unexpected failure; details are logged, never shown
)

// EREVERIFY refuses a sensitive action (changing 2FA or passkeys, deleting things...) until the
// session proves the user's identity again (password, authenticator code or e-mailed code); 403.
const EREVERIFY = "reverification_required"

// internalMessage is the only message an internal error ever shows.
const internalMessage = "Internal error."

// Error is the one error type of Patrimonio. Code is one of the E* constants; Message is safe to show
// to the user (it never holds secrets or internal details). Fields names the fields at fault of a
// refused document (EINVALID); RetryAfter, when positive, says when the same request may succeed
// (ETOOMANY, EUNAVAILABLE). The HTTP layer writes all of it with one writer: the body
// {"error":{"code","message","fields"}} and the Retry-After header.
type Error struct {
	Code       string
	Message    string
	Fields     []FieldIssue
	RetryAfter time.Duration
}

// FieldIssue is one problem with one field of a submitted document: its dotted path and the message
// in the reader's language; for the shared schema's checks also the message key (shared-schema
// messages/<lang>.json) and its parameters, for clients that translate themselves.
type FieldIssue struct {
	Path    string         `json:"path"`
	Key     string         `json:"key,omitempty"`
	Params  map[string]any `json:"params,omitempty"`
	Message string         `json:"message"`
}

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up, at least 1; 0 when RetryAfter is not
// positive.
func (e *Error) RetryAfterSeconds() int {
	if e.RetryAfter <= 0 {
		return 0
	}
	return max(1, int((e.RetryAfter+time.Second-1)/time.Second))
}

// Error implements the error interface. It is meant for logs, not for users.
func (e *Error) Error() string {
	return fmt.Sprintf("patrimonio error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for a nil error, and EINTERNAL
// for any other error (an error that nobody translated into an *Error is unexpected).
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, "" for a nil error, and a
// generic message for internal errors, whatever they carry, so that no detail leaks to users.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Code != EINTERNAL {
		return e.Message
	}
	return internalMessage
}
