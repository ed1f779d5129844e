package psync

import (
	"patrimonio/core"
	schema "patrimonio/shared-schema"
)

// Status is the verdict on one pushed mutation.
type Status string

// The verdicts.
const (
	// StatusApplied: merged and committed now, at Outcome.Seq.
	StatusApplied Status = "applied"
	// StatusDuplicate: a resend of a mutation applied before; nothing was applied again.
	StatusDuplicate Status = "duplicate"
	// StatusRejected: refused, with Outcome.Code and Outcome.Issues; the rest of the push proceeds.
	StatusRejected Status = "rejected"
)

// Reject codes (the wire's reject.code).
const (
	RejectInvalid   = "invalid"   // the mutation, or the record it would make, breaks the schema
	RejectForbidden = "forbidden" // the user's role in the workspace may not write (viewer)
	RejectNotFound  = "not_found" // not a member of the workspace (or it does not exist), or the record is gone (collected)
	RejectTooLarge  = "too_large" // the record would grow over its size limit
)

// Outcome is the verdict on one mutation of a push.
type Outcome struct {
	MutationID int64
	Status     Status
	// Seq is the workspace sequence number the mutation was committed at (applied, and duplicate
	// while the change is still kept; 0 otherwise).
	Seq int64
	// Stamp is the mutation's effective stamp: its own, or the server's when it was re-stamped
	// (Restamped). Zero when unknown (a duplicate whose change is no longer kept, a rejection).
	Stamp     Stamp
	Restamped bool
	// Code and Issues say why a mutation was rejected. Issue messages are resolved when sent.
	Code   string
	Issues []schema.Issue
}

// ParsePush validates a push message (already decoded with exact numbers) against the shared
// schema and splits it into the mutations to apply and the ones rejected on their own (issues at
// paths relative to the mutation). It fails as a whole, with an EINVALID (or ETOOLARGE for too
// many mutations) error, when the message cannot be answered per mutation. maxMutations is the
// per-push limit.
func ParsePush(msg map[string]any, maxMutations int) ([]ClientMutation, []Outcome, error) {
	list, ok := msg["mutations"].([]any)
	if !ok || len(list) == 0 {
		return nil, nil, core.Errorf(core.EINVALID, "A push needs a list of mutations.")
	}
	if len(list) > maxMutations {
		return nil, nil, core.Errorf(core.ETOOLARGE, "A push may hold at most %d mutations.", maxMutations)
	}
	var previous int64
	for _, item := range list {
		obj, _ := item.(map[string]any)
		id, ok := intOf(obj["mutationId"])
		if !ok || id < 1 || id > maxSafeInteger || id <= previous {
			return nil, nil, core.Errorf(core.EINVALID, "Every mutation needs a mutationId, strictly increasing within the push.")
		}
		previous = id
	}

	perMutation := make([][]schema.Issue, len(list))
	issues, err := schema.ValidateValue("clientMessage", msg, schema.DefaultLanguage)
	if err != nil {
		return nil, nil, err
	}
	if len(issues) > 0 {
		for _, is := range issues {
			if _, _, ok := issuePathIndex(is.Path); !ok {
				return nil, nil, core.Errorf(core.EINVALID, "The push message breaks the protocol at %q (%s).", is.Path, is.Key)
			}
		}
		// JSON Schema stops before the cross-field rules when any mutation fails it, so check
		// each mutation alone to find every invalid one and only those.
		for i, item := range list {
			alone := map[string]any{"type": msgPush, "mutations": []any{item}}
			own, err := schema.ValidateValue("clientMessage", alone, schema.DefaultLanguage)
			if err != nil {
				return nil, nil, err
			}
			for _, is := range own {
				_, tail, ok := issuePathIndex(is.Path)
				if !ok {
					tail = is.Path
				}
				perMutation[i] = append(perMutation[i], schema.Issue{Path: tail, Key: is.Key, Params: is.Params})
			}
		}
	}

	var muts []ClientMutation
	var rejected []Outcome
	for i, item := range list {
		obj := item.(map[string]any)
		id, _ := intOf(obj["mutationId"])
		if len(perMutation[i]) == 0 {
			cm, stampIssues := readMutation(obj)
			if len(stampIssues) == 0 {
				muts = append(muts, cm)
				continue
			}
			perMutation[i] = stampIssues
		}
		sortIssues(perMutation[i])
		rejected = append(rejected, Outcome{MutationID: id, Status: StatusRejected, Code: RejectInvalid, Issues: perMutation[i]})
	}
	return muts, rejected, nil
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the largest id the schema allows.
const maxSafeInteger = 1<<53 - 1
