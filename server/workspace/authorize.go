package workspace

import (
	"context"
	"errors"

	"patrimonio/core"
	"patrimonio/server/authz"
)

// authorize asks authz and words a refusal in the language of ctx.
func authorize(ctx context.Context, req authz.Request) error {
	err := authz.Authorize(req)
	var r *authz.Refusal
	if errors.As(err, &r) {
		return &core.Error{Code: r.Err.Code, Message: r.Message(core.LanguageFrom(ctx))}
	}
	return err
}
