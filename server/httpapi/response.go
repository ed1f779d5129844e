package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/store"
)

// statusByCode is the one place where error codes become HTTP statuses.
var statusByCode = map[string]int{
	core.EINVALID:      http.StatusBadRequest,
	core.EUNAUTHORIZED: http.StatusUnauthorized,
	core.EFORBIDDEN:    http.StatusForbidden,
	core.EREVERIFY:     http.StatusForbidden,
	core.ENOTFOUND:     http.StatusNotFound,
	core.EMETHOD:       http.StatusMethodNotAllowed,
	core.ECONFLICT:     http.StatusConflict,
	core.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	core.ETOOMANY:      http.StatusTooManyRequests,
	core.EINTERNAL:     http.StatusInternalServerError,
	core.EUNAVAILABLE:  http.StatusServiceUnavailable,
}

func statusOf(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorBody is the JSON of every error answer:
// {"error": {"code": "...", "message": "...", "fields": [{path, key, params, message}]}}, fields only
// when the error names the fields at fault (core.Error.Fields).
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  []core.FieldIssue `json:"fields,omitempty"`
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a programming error (an unencodable type) gets here.
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{errorDetail{Code: core.EINTERNAL, Message: core.ErrorMessage(err)}})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers err: a *core.Error as it is, a database that dropped the connection as
// 503 unavailable (retry in a second), anything else as 500 internal. Only internal errors are
// logged, with their detail; their message to the client is generic.
func (a *api) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *core.Error
	switch code := core.ErrorCode(err); {
	case code == core.EINTERNAL && store.Unavailable(err):
		// The database dropped the connection or cannot be reached (a restart): a moment later the
		// same request may succeed, so say that rather than "internal error".
		a.logger.WarnContext(r.Context(), "database unavailable", "err", err, "method", r.Method, "path", r.URL.Path)
		e = core.Refuse(r.Context(), core.EUNAVAILABLE, "http.database.unavailable")
		e.RetryAfter = time.Second
	case code == core.EINTERNAL:
		a.logger.ErrorContext(r.Context(), "internal error", "err", err, "method", r.Method, "path", r.URL.Path)
		e = &core.Error{Code: core.EINTERNAL, Message: core.ErrorMessage(err)}
	default:
		if !errors.As(err, &e) { // a nil err: a bug in the handler
			e = &core.Error{Code: core.EINTERNAL, Message: core.ErrorMessage(core.Errorf(core.EINTERNAL, "no error"))}
		}
	}
	writeErrorJSON(w, e)
}

// writeErrorJSON is the one writer of error answers: the status of e's code, Retry-After when e
// says when to retry, and the error body with the fields at fault.
func writeErrorJSON(w http.ResponseWriter, e *core.Error) {
	if s := e.RetryAfterSeconds(); s > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(s))
	}
	writeJSON(w, statusOf(e.Code), errorBody{errorDetail{Code: e.Code, Message: e.Message, Fields: e.Fields}})
}

// notFound answers any unknown API path.
func (a *api) notFound(w http.ResponseWriter, r *http.Request) {
	a.writeError(w, r, core.Errorf(core.ENOTFOUND, "No API endpoint at %s.", r.URL.Path))
}

// methodNotAllowed answers a known path asked with the wrong method, naming the allowed ones in
// the Allow header.
func (a *api) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allowed := a.allowedMethods(r.URL.Path)
	if len(allowed) == 0 {
		a.notFound(w, r)
		return
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	a.writeError(w, r, core.Errorf(core.EMETHOD, "Method %s is not allowed here; allowed: %s.", r.Method, strings.Join(allowed, ", ")))
}

var routeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

func (a *api) allowedMethods(path string) []string {
	var out []string
	for _, m := range routeMethods {
		if a.mux.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// decodeJSON reads the request body as one JSON value into dst. It requires a JSON content type,
// refuses unknown fields, trailing data and bodies over maxJSONBody, and explains the problem in
// an *core.Error (EINVALID, or ETOOLARGE), worded in the request's language, that the handler
// answers with writeError.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	ctx := r.Context()
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return core.Refuse(ctx, core.EINVALID, "http.request.notJSON")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		return decodeError(ctx, err)
	}
	if err := checkJSONText(ctx, body); err != nil { // input.go: no NUL bytes towards SQL
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(ctx, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return decodeError(ctx, err)
		}
		return core.Refuse(ctx, core.EINVALID, "http.request.singleValue")
	}
	return nil
}

// unknownFieldPrefix starts encoding/json's error for a field that DisallowUnknownFields refuses;
// the package has no error type for it.
const unknownFieldPrefix = "json: unknown field "

func decodeError(ctx context.Context, err error) error {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var maxErr *http.MaxBytesError
	invalid := func(key string, args ...any) error {
		return core.Refuse(ctx, core.EINVALID, key, args...)
	}
	switch {
	case errors.As(err, &maxErr):
		return core.Refuse(ctx, core.ETOOLARGE, "http.request.tooLarge", maxErr.Limit>>10)
	case errors.Is(err, io.EOF):
		return invalid("http.request.emptyBody")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("http.request.cutOff")
	case errors.As(err, &syntaxErr):
		return invalid("http.request.badJSON", syntaxErr.Offset)
	case errors.As(err, &typeErr):
		kind := core.Text(ctx, jsonKind(typeErr.Type))
		if typeErr.Field == "" {
			return invalid("http.request.bodyType", kind)
		}
		return invalid("http.request.fieldType", strconv.Quote(typeErr.Field), kind)
	case strings.HasPrefix(err.Error(), unknownFieldPrefix):
		return invalid("http.request.unknown", strings.TrimPrefix(err.Error(), unknownFieldPrefix))
	}
	return invalid("http.request.unreadable")
}

// jsonKind is the message key naming the JSON type that a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "http.kind.string"
	case reflect.Bool:
		return "http.kind.bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "http.kind.int"
	case reflect.Float32, reflect.Float64:
		return "http.kind.number"
	case reflect.Slice, reflect.Array:
		return "http.kind.array"
	case reflect.Map, reflect.Struct:
		return "http.kind.object"
	}
	return "http.kind.other"
}
