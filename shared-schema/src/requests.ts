// Request bodies of the online API (/api/v1) that people type into a form: sign-up, sign-in, the
// e-mailed and authenticator codes, workspace names, invitations, member roles and the change of
// e-mail address. The PWA's forms validate with these zod schemas (react-hook-form + zodResolver)
// and the server validates the same bodies against the generated JSON Schema before anything else
// (schema.Validate in server/httpapi), so a rule and its message live here only.
//
// The server still normalises what it stores (addresses trimmed and lower-cased, names trimmed) and
// keeps the checks that need its data (a taken address, a common password, a wrong code).
import * as z from "zod";
import { doc, email, ENUM_KEY, lengthCheck, REQUIRED_KEY, SECRET, text } from "./primitives";

/** Passwords: 10 to 256 characters (code points), any characters (server/account: the same limits). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
/** The longest workspace name, in characters (server/workspace.MaxNameLength). */
export const WORKSPACE_NAME_MAX = 80;
/** Roles of a workspace member, most powerful first (server/authz.Roles). */
export const WORKSPACE_ROLES = ["owner", "editor", "viewer"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** A 6-digit code: the e-mailed verification codes and the authenticator (TOTP) codes. */
export const OTP_CODE_PATTERN = /^[0-9]{6}$/;

/** The one e-mail field of every form: required (its own message), the shared address format. */
export const emailField = (requiredKey = "validation.account.emailRequired") =>
  doc(email().meta({ [REQUIRED_KEY]: requiredKey }), "E-mail address.");

/** A secret typed by a person: any characters, length in code points, never logged or echoed. */
function password(min: number) {
  return lengthCheck(z.string(), min, PASSWORD_MAX, "validation.account.passwordRequired").meta({ [SECRET]: true });
}

/** A 6-digit code field. */
export const otpCode = () =>
  doc(z.stringFormat("otpCode", OTP_CODE_PATTERN).meta({ [REQUIRED_KEY]: "validation.account.codeRequired" }), "6-digit code.");

export const signUpRequestSchema = doc(
  z.strictObject({
    email: emailField(),
    password: doc(password(PASSWORD_MIN), `New password, ${PASSWORD_MIN}–${PASSWORD_MAX} characters; common passwords are refused by the server.`),
  }),
  "POST /auth/signup",
);
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export const signInRequestSchema = doc(
  z.strictObject({
    email: emailField(),
    password: doc(password(1), "The account's password."),
  }),
  "POST /auth/signin",
);
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** {code}: e-mail verification, e-mail change confirmation, enabling TOTP, the sign-in second factor. */
export const codeRequestSchema = doc(z.strictObject({ code: otpCode() }), "POST /auth/email/verify, /users/email/verify, /auth/totp/enable, /auth/signin/totp");
export type CodeRequest = z.infer<typeof codeRequestSchema>;

/** {recoveryCode}: the sign-in second factor with one of the account's recovery codes (xxxxx-xxxxx;
 * the server folds case, spaces and dashes). */
export const recoveryCodeRequestSchema = doc(
  z.strictObject({
    recoveryCode: doc(text({ min: 1, max: 64, requiredKey: "validation.account.recoveryCodeRequired" }), "One of the 10 recovery codes."),
  }),
  "POST /auth/signin/totp (with a recovery code)",
);
export type RecoveryCodeRequest = z.infer<typeof recoveryCodeRequestSchema>;

export const workspaceNameRequestSchema = doc(
  z.strictObject({
    name: doc(
      text({ min: 1, max: WORKSPACE_NAME_MAX, requiredKey: "validation.workspace.nameRequired" }),
      "Workspace name (the server trims it; blank is refused).",
    ),
  }),
  "POST /workspaces, PATCH /workspaces/{id}",
);
export type WorkspaceNameRequest = z.infer<typeof workspaceNameRequestSchema>;

const role = () =>
  doc(z.enum(WORKSPACE_ROLES).meta({ [REQUIRED_KEY]: "validation.workspace.roleRequired" }), "Member role: owner ⊃ editor ⊃ viewer.");

export const invitationRequestSchema = doc(
  z.strictObject({ email: emailField("validation.workspace.inviteEmailRequired"), role: role() }),
  "POST /workspaces/{id}/invitations",
);
export type InvitationRequest = z.infer<typeof invitationRequestSchema>;

export const memberRoleRequestSchema = doc(z.strictObject({ role: role() }), "PATCH /workspaces/{id}/members/{userId}");
export type MemberRoleRequest = z.infer<typeof memberRoleRequestSchema>;

/** {email}: the new address of an e-mail change; the address of a sign-up whose code is to be sent again. */
export const emailRequestSchema = doc(z.strictObject({ email: emailField() }), "POST /users/email (the new address), /auth/signup/resend");
export type EmailRequest = z.infer<typeof emailRequestSchema>;

/** {email, code}: confirms a sign-up with the e-mailed code (and signs in). */
export const signUpVerifyRequestSchema = doc(z.strictObject({ email: emailField(), code: otpCode() }), "POST /auth/signup/verify");
export type SignUpVerifyRequest = z.infer<typeof signUpVerifyRequestSchema>;

/**
 * {currentPassword, newPassword}: changing the password (issue 11). Used by the PWA's form only (it
 * has no format to share vectors for); the server checks the same lengths in server/account.
 */
export const passwordChangeRequestSchema = doc(
  z.strictObject({
    currentPassword: doc(password(1), "The current password."),
    newPassword: doc(password(PASSWORD_MIN), `New password, ${PASSWORD_MIN}–${PASSWORD_MAX} characters; the server also refuses common ones and the user's own address or name.`),
  }),
  "POST /auth/password",
);
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

/** {token} or {email, code}, with the new password: a password reset (issue 11). */
export const passwordResetRequestSchema = doc(
  z.strictObject({
    token: doc(z.string().max(128).optional(), "The token of the e-mailed link."),
    email: emailField().optional(),
    code: otpCode().optional(),
    password: doc(password(PASSWORD_MIN), `New password, ${PASSWORD_MIN}–${PASSWORD_MAX} characters.`),
  }),
  "POST /auth/password/reset",
);
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** How a person proves again who they are before a sensitive change (POST /auth/reverify). Passkeys
 * prove it through /auth/reverify/passkey/*. */
export const REVERIFY_METHODS = ["password", "totp", "email"] as const;

/**
 * {method, password | code}: a recent proof of identity. The password goes with "password", the
 * 6-digit code with "totp" and "email"; the server checks the secret and refuses one of the wrong
 * kind as a wrong secret.
 */
export const reverifyRequestSchema = doc(
  z.strictObject({
    method: doc(z.enum(REVERIFY_METHODS).meta({ [ENUM_KEY]: "validation.account.reverifyMethod" }), "password, totp (authenticator app) or email (an e-mailed code)."),
    password: doc(password(1), "The account's password (method password).").optional(),
    code: otpCode().optional(),
  }),
  "POST /auth/reverify",
);
export type ReverifyRequest = z.infer<typeof reverifyRequestSchema>;

/** What a Checkout session is for (server/billing): the 1 US dollar card check, or the plan. */
export const CHECKOUT_KINDS = ["card_check", "subscription"] as const;
/** Where Checkout comes back to: the onboarding (the default) or the billing page. */
export const CHECKOUT_RETURNS = ["onboarding", "billing"] as const;

/**
 * {kind, priceId?, returnTo?}: a Stripe Checkout session (issue 14). The plan (kind subscription)
 * names its monthly price; the server checks that the price is offered and words that refusal.
 */
export const checkoutRequestSchema = doc(
  z.strictObject({
    kind: doc(z.enum(CHECKOUT_KINDS), "card_check (the 1 US dollar card check) or subscription (a plan)."),
    priceId: doc(z.string().max(255), "The plan's monthly Stripe price id (kind subscription).").optional(),
    returnTo: doc(z.enum(CHECKOUT_RETURNS), "onboarding (default) or billing.").optional(),
  }),
  "POST /stripe/create-checkout-session",
);
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** Request entities by name (the names schema.Validate takes on the Go side). */
export const REQUEST_SCHEMAS = {
  signUpRequest: signUpRequestSchema,
  signInRequest: signInRequestSchema,
  codeRequest: codeRequestSchema,
  recoveryCodeRequest: recoveryCodeRequestSchema,
  workspaceNameRequest: workspaceNameRequestSchema,
  invitationRequest: invitationRequestSchema,
  memberRoleRequest: memberRoleRequestSchema,
  emailRequest: emailRequestSchema,
  signUpVerifyRequest: signUpVerifyRequestSchema,
  passwordResetRequest: passwordResetRequestSchema,
  reverifyRequest: reverifyRequestSchema,
  checkoutRequest: checkoutRequestSchema,
} as const;
export const REQUEST_ENTITIES = Object.keys(REQUEST_SCHEMAS) as (keyof typeof REQUEST_SCHEMAS)[];
