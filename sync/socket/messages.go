package socket

import (
	"encoding/json"
	"sort"
	"strconv"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
)

// The server messages this transport writes besides the pages (psync.EncodeChanges and
// EncodeSnapshot), and the types of the messages it reads. The messages are defined once, in
// shared-schema/src/protocol.ts; PROTOCOL.md describes the flow.

const (
	msgHello          = "hello"
	msgPush           = "push"
	msgPull           = "pull"
	msgPing           = "ping"
	msgWelcome        = "welcome"
	msgAck            = "ack"
	msgReject         = "reject"
	msgResyncRequired = "resyncRequired"
	msgAccessDenied   = "accessDenied"
	msgError          = "error"
	msgPong           = "pong"
)

type welcomeMessage struct {
	Type            string        `json:"type"`
	ProtocolVersion int           `json:"protocolVersion"`
	SchemaVersion   int           `json:"schemaVersion"`
	ServerTime      psync.Stamp   `json:"serverTime"`
	Limits          welcomeLimits `json:"limits"`
}

type welcomeLimits struct {
	MaxMessageBytes      int `json:"maxMessageBytes"`
	MaxMutationsPerPush  int `json:"maxMutationsPerPush"`
	MaxChangesPerPage    int `json:"maxChangesPerPage"`
	MaxMessagesPerSecond int `json:"maxMessagesPerSecond"`
}

type rejectMessage struct {
	Type       string      `json:"type"`
	MutationID int64       `json:"mutationId"`
	Code       string      `json:"code"`
	Issues     []wireIssue `json:"issues"`
}

type wireIssue struct {
	Path    string         `json:"path"`
	Key     string         `json:"key"`
	Params  map[string]any `json:"params"`
	Message string         `json:"message"`
}

type resyncMessage struct {
	Type        string `json:"type"`
	WorkspaceID string `json:"workspaceId"`
	Reason      string `json:"reason"`
}

type errorMessage struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

type simpleMessage struct {
	Type string `json:"type"`
}

// wireIssues resolves issues' messages in lang, at most schema.MaxIssues of them.
func wireIssues(issues []schema.Issue, lang string) []wireIssue {
	out := make([]wireIssue, 0, min(len(issues), schema.MaxIssues))
	for _, is := range issues {
		if len(out) == schema.MaxIssues {
			break
		}
		params := is.Params
		if params == nil {
			params = map[string]any{}
		}
		out = append(out, wireIssue{Path: is.Path, Key: is.Key, Params: params, Message: schema.Message(lang, is.Key, params)})
	}
	return out
}

// ackWriter writes an ack message entry by entry, straight from the outcomes, without reflection
// or a value (and its stamp) per mutation; messages_internal_test.go holds it to what
// encoding/json writes. A push of 500 is answered with one message of 500 entries.
type ackWriter struct{ b []byte }

// add appends the ack of an applied or duplicate outcome (n: the entries expected, to size the
// message once).
func (w *ackWriter) add(o psync.Outcome, n int) {
	if w.b == nil {
		w.b = make([]byte, 0, 24+n*(64+psync.StampLen))
		w.b = append(w.b, `{"type":"ack","acks":[`...)
	} else {
		w.b = append(w.b, ',')
	}
	b := append(w.b, `{"mutationId":`...)
	b = strconv.AppendInt(b, o.MutationID, 10)
	b = append(b, `,"status":`...)
	b = strconv.AppendQuote(b, string(o.Status)) // a Status is plain ASCII: quoted as JSON quotes it
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, o.Seq, 10)
	if !o.Stamp.IsZero() {
		var err error
		b = append(b, `,"stamp":"`...)
		if b, err = o.Stamp.AppendText(b); err != nil {
			panic("sync: encode a server message: " + err.Error())
		}
		b = append(b, '"')
	}
	w.b = append(b, '}')
}

// message is the ack message, nil when no entry was added.
func (w *ackWriter) message() []byte {
	if w.b == nil {
		return nil
	}
	return append(w.b, "]}"...)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("sync: encode a server message: " + err.Error())
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
