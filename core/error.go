// Package core is what every Go package of Patrimonio shares, and nothing else: the error type with
// its codes, the language of user-visible messages, the request id carried in contexts and logs, the
// normal form of a web origin, and the build's version. It imports nothing of ours and no database,
// HTTP or other technology package, so that the server (server/...) and the sync engine (sync/) can
// both sit on it without depending on each other. The configuration is in server/config, where the
// server is wired; database dialects are in server/store.
package core

import (
	"errors"
	"fmt"
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
// to the user (it never holds secrets or internal details).
type Error struct {
	Code    string
	Message string
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
