package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"github.com/go-chi/chi/v5"

	"patrimonio/server"
)

// statusByCode is the one place where error codes become HTTP statuses.
var statusByCode = map[string]int{
	server.EINVALID:      http.StatusBadRequest,
	server.EUNAUTHORIZED: http.StatusUnauthorized,
	server.EFORBIDDEN:    http.StatusForbidden,
	server.EREVERIFY:     http.StatusForbidden,
	server.ENOTFOUND:     http.StatusNotFound,
	server.EMETHOD:       http.StatusMethodNotAllowed,
	server.ECONFLICT:     http.StatusConflict,
	server.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	server.ETOOMANY:      http.StatusTooManyRequests,
	server.EINTERNAL:     http.StatusInternalServerError,
	server.EUNAVAILABLE:  http.StatusServiceUnavailable,
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
		b, _ = json.Marshal(errorBody{errorDetail{server.EINTERNAL, server.ErrorMessage(err)}})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers err as the JSON error body with the status of its code. Only internal errors
// are logged, with their detail; their message to the client is generic.
func (a *api) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := server.ErrorCode(err)
	if code == server.EINTERNAL {
		a.logger.ErrorContext(r.Context(), "internal error", "err", err, "method", r.Method, "path", r.URL.Path)
	}
	writeErrorBody(w, code, server.ErrorMessage(err))
}

func writeErrorBody(w http.ResponseWriter, code, message string) {
	writeJSON(w, statusOf(code), errorBody{errorDetail{Code: code, Message: message}})
}

// notFound answers any unknown API path.
func (a *api) notFound(w http.ResponseWriter, r *http.Request) {
	a.writeError(w, r, server.Errorf(server.ENOTFOUND, "No API endpoint at %s.", r.URL.Path))
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
	a.writeError(w, r, server.Errorf(server.EMETHOD, "Method %s is not allowed here; allowed: %s.", r.Method, strings.Join(allowed, ", ")))
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

func tooLargeMessage(limit int64) string {
	return fmt.Sprintf("The request body is larger than the limit of %d KiB.", limit>>10)
}

// decodeJSON reads the request body as one JSON value into dst. It requires a JSON content type,
// refuses unknown fields, trailing data and bodies over maxJSONBody, and explains the problem in
// an *server.Error (EINVALID, or ETOOLARGE) that the handler answers with writeError.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return server.Errorf(server.EINVALID, "The request body must be JSON (Content-Type: application/json).")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return decodeError(err)
		}
		return server.Errorf(server.EINVALID, "The request body must hold a single JSON value.")
	}
	return nil
}

func decodeError(err error) error {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		return server.Errorf(server.ETOOLARGE, "%s", tooLargeMessage(maxErr.Limit))
	case errors.Is(err, io.EOF):
		return server.Errorf(server.EINVALID, "The request body is empty; a JSON value was expected.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return server.Errorf(server.EINVALID, "The request body is not valid JSON: it ends too early.")
	case errors.As(err, &syntaxErr):
		return server.Errorf(server.EINVALID, "The request body is not valid JSON (at byte %d).", syntaxErr.Offset)
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return server.Errorf(server.EINVALID, "The request body must be %s.", jsonKind(typeErr.Type))
		}
		return server.Errorf(server.EINVALID, "The field %q must be %s.", typeErr.Field, jsonKind(typeErr.Type))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return server.Errorf(server.EINVALID, "The field %s is not allowed.", field)
	}
	return server.Errorf(server.EINVALID, "The request body could not be read.")
}

// jsonKind names the JSON type that a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}
