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

// errorBody is the JSON of every error answer: {"error": {"code": "...", "message": "..."}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a programming error (an unencodable type) gets here.
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{errorDetail{core.EINTERNAL, core.ErrorMessage(err)}})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers err as the JSON error body with the status of its code. Only internal errors
// are logged, with their detail; their message to the client is generic.
func (a *api) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if invalid := (*invalidBodyError)(nil); errors.As(err, &invalid) {
		writeInvalidBody(w, invalid) // a request body the shared schema refused (validate.go)
		return
	}
	code := core.ErrorCode(err)
	if code == core.EINTERNAL && store.Unavailable(err) {
		// The database dropped the connection or cannot be reached (a restart): a moment later the
		// same request may succeed, so say that rather than "internal error".
		a.logger.WarnContext(r.Context(), "database unavailable", "err", err, "method", r.Method, "path", r.URL.Path)
		w.Header().Set("Retry-After", "1")
		writeErrorBody(w, core.EUNAVAILABLE, requestText(r.Context(), "database.unavailable"))
		return
	}
	if code == core.EINTERNAL {
		a.logger.ErrorContext(r.Context(), "internal error", "err", err, "method", r.Method, "path", r.URL.Path)
	}
	writeErrorBody(w, code, core.ErrorMessage(err))
}

func writeErrorBody(w http.ResponseWriter, code, message string) {
	writeJSON(w, statusOf(code), errorBody{errorDetail{Code: code, Message: message}})
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
		return core.Errorf(core.EINVALID, "%s", requestText(ctx, "request.notJSON"))
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
		return core.Errorf(core.EINVALID, "%s", requestText(ctx, "request.singleValue"))
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
		return core.Errorf(core.EINVALID, "%s", requestText(ctx, key, args...))
	}
	switch {
	case errors.As(err, &maxErr):
		return core.Errorf(core.ETOOLARGE, "%s", requestText(ctx, "request.tooLarge", maxErr.Limit>>10))
	case errors.Is(err, io.EOF):
		return invalid("request.emptyBody")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("request.cutOff")
	case errors.As(err, &syntaxErr):
		return invalid("request.badJSON", syntaxErr.Offset)
	case errors.As(err, &typeErr):
		kind := requestText(ctx, jsonKind(typeErr.Type))
		if typeErr.Field == "" {
			return invalid("request.bodyType", kind)
		}
		return invalid("request.fieldType", strconv.Quote(typeErr.Field), kind)
	case strings.HasPrefix(err.Error(), unknownFieldPrefix):
		return invalid("request.unknown", strings.TrimPrefix(err.Error(), unknownFieldPrefix))
	}
	return invalid("request.unreadable")
}

// jsonKind is the message key naming the JSON type that a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "kind.string"
	case reflect.Bool:
		return "kind.bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "kind.int"
	case reflect.Float32, reflect.Float64:
		return "kind.number"
	case reflect.Slice, reflect.Array:
		return "kind.array"
	case reflect.Map, reflect.Struct:
		return "kind.object"
	}
	return "kind.other"
}
