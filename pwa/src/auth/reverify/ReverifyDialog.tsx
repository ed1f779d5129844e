// The re-verification dialog (spec): a sensitive action needs a proof of identity from the last ten
// minutes — an authenticator code, a passkey, the password or a code sent by e-mail (with a resend
// link that counts down its cooldown), and a way to use another method. Changing a second factor
// needs a proof with one (the authenticator or a passkey) when the user has one: those come first.
// The code and the password are schema forms (useSchemaForm) over the shared schema's rules: the
// codeRequest body's 6-digit code, and the sign-in body's password.
import { codeRequestSchema, signInRequestSchema } from "@patrimonio/shared-schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint, KeyRound, Mail, ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { queryKeys, useAuthConfig } from "../../api/queries";
import type { User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormError } from "../../forms/FormError";
import { useSchemaForm } from "../../forms/schemaForm";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Dialog } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { accountApi } from "../accountApi";
import { useResendCooldown } from "../useResendCooldown";
import { getPasskeyAssertion, isWebAuthnCancel, webauthnSupported } from "../webauthn";
import styles from "./ReverifyDialog.module.css";

export type ProofMethod = "totp" | "passkey" | "password" | "email";

/** The methods a user can prove themselves with, best first (second factors first). */
export function availableMethods(user: Pick<User, "totpEnabled" | "hasPassword"> | undefined, passkeys = false): ProofMethod[] {
  const methods: ProofMethod[] = [];
  if (user?.totpEnabled) methods.push("totp");
  if (passkeys) methods.push("passkey");
  if (user?.hasPassword) methods.push("password");
  methods.push("email");
  return methods;
}

const ICONS = { totp: ShieldCheck, passkey: Fingerprint, password: KeyRound, email: Mail } as const;

/** The password proof: the account's password, by the sign-in body's rule (any non-empty password). */
const passwordProofSchema = signInRequestSchema.pick({ password: true });

type VerifyBody = { method: "totp" | "password" | "email"; password?: string; code?: string };

/** The id that ties the dialog's Confirm button (in its footer) to the method's form. */
const FORM_ID = "reverify-form";

export interface ReverifyDialogProps {
  user: User | undefined;
  onDone: () => void;
  onCancel: () => void;
}

export function ReverifyDialog({ user, onDone, onCancel }: ReverifyDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const config = useAuthConfig();
  const methods = availableMethods(user, config.data?.passkeys === true && webauthnSupported());
  const [method, setMethod] = useState<ProofMethod>(methods[0]!);
  const [choosing, setChoosing] = useState(false);
  // Once a code was asked for, its field stays: a refused resend (the cooldown) does not hide it.
  const [emailAsked, setEmailAsked] = useState(false);
  const cooldown = useResendCooldown();

  const proven = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    onDone();
  };
  const sendEmail = useMutation({
    mutationFn: () => endpoints.sendReverifyEmail(api),
    onMutate: () => setEmailAsked(true),
    onSuccess: () => cooldown.start(60),
    onError: (error) => cooldown.fromError(error),
  });
  const verify = useMutation({
    mutationFn: (body: VerifyBody) => endpoints.reverify(api, body),
    onSuccess: proven,
  });
  const passkey = useMutation({
    mutationFn: async () => {
      const options = await accountApi.reverifyPasskeyBegin(api);
      return accountApi.reverifyPasskeyFinish(api, await getPasskeyAssertion(options));
    },
    onSuccess: proven,
  });

  function choose(next: ProofMethod) {
    setMethod(next);
    setChoosing(false);
    verify.reset();
    passkey.reset();
    if (next === "email" && !emailAsked) sendEmail.mutate();
  }

  function submitPasskey(event: FormEvent) {
    event.preventDefault();
    passkey.mutate();
  }

  const emailWaiting = method === "email" && !emailAsked;
  const sendRefused = sendEmail.isError && !cooldown.secondsLeft;
  const busy = verify.isPending || passkey.isPending;
  const passkeyFailed = passkey.isError && !isWebAuthnCancel(passkey.error);

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={t("reverify.title")}
      description={t("reverify.description")}
      data-testid="reverify-dialog"
      footer={
        choosing ? undefined : (
          <div className={styles.actions}>
            {methods.length > 1 && (
              <Button variant="ghost" className={styles.start} onClick={() => setChoosing(true)}>
                {t("reverify.useAnother")}
              </Button>
            )}
            <Button onClick={onCancel}>{t("common.cancel")}</Button>
            <Button type="submit" form={FORM_ID} variant="primary" loading={busy} loadingText={t("common.checking")} disabled={emailWaiting}>
              {method === "passkey" ? t("account.reverify.usePasskey") : t("reverify.confirm")}
            </Button>
          </div>
        )
      }
    >
      {choosing ? (
        <div className={styles.methods} role="group" aria-label={t("reverify.otherMethods")}>
          {methods
            .filter((m) => m !== method)
            .map((m) => {
              const Icon = ICONS[m];
              return (
                <Button key={m} icon={<Icon size={18} />} block onClick={() => choose(m)}>
                  {m === "passkey" ? t("account.reverify.methodPasskey") : t(`reverify.method.${m}`)}
                </Button>
              );
            })}
          <Button variant="ghost" onClick={() => setChoosing(false)}>
            {t("common.back")}
          </Button>
        </div>
      ) : (
        <div className={styles.form}>
          {method === "email" && (
            <p className={styles.text} role="status">
              {sendEmail.isPending
                ? t("reverify.emailSending")
                : emailAsked
                  ? t("reverify.emailSent", { email: user?.email ?? "" })
                  : t("reverify.emailIntro", { email: user?.email ?? "" })}
            </p>
          )}
          {method === "passkey" && (
            <form id={FORM_ID} onSubmit={submitPasskey} noValidate>
              <p className={styles.text}>{t("account.reverify.passkeyText")}</p>
            </form>
          )}
          {sendRefused && <Alert>{errorText(sendEmail.error)}</Alert>}
          {emailWaiting && !sendEmail.isPending && (
            <Button icon={<Mail size={16} />} data-autofocus onClick={() => sendEmail.mutate()}>
              {t("reverify.sendEmail")}
            </Button>
          )}
          {!emailWaiting && method === "password" && <PasswordProof onProof={(password) => verify.mutateAsync({ method, password })} />}
          {!emailWaiting && (method === "totp" || method === "email") && (
            <CodeProof
              key={method}
              label={method === "totp" ? t("reverify.totpLabel") : t("reverify.emailCodeLabel")}
              onProof={(code) => verify.mutateAsync({ method, code })}
            />
          )}
          {method === "email" && emailAsked && (
            <Button
              variant="ghost"
              size="sm"
              className={styles.resend}
              onClick={() => sendEmail.mutate()}
              disabled={sendEmail.isPending || cooldown.secondsLeft > 0}
            >
              {cooldown.secondsLeft > 0 ? t("account.resendIn", { count: cooldown.secondsLeft }) : t("reverify.resend")}
            </Button>
          )}
          {passkeyFailed && <Alert>{errorText(passkey.error)}</Alert>}
        </div>
      )}
    </Dialog>
  );
}

/** The 6-digit code of the authenticator app or of the e-mail; a refusal (a wrong code) is the form's alert. */
function CodeProof({ label, onProof }: { label: string; onProof: (code: string) => Promise<unknown> }) {
  const form = useSchemaForm(codeRequestSchema, { defaultValues: { code: "" } });
  return (
    <form id={FORM_ID} className={styles.form} onSubmit={form.submit((values) => onProof(values.code))} noValidate>
      <Field label={label} error={form.errorText("code")}>
        <CodeInput {...form.register("code")} data-autofocus />
      </Field>
      <FormError form={form} />
    </form>
  );
}

/** The account's password; a refusal (a wrong password) is the form's alert. */
function PasswordProof({ onProof }: { onProof: (password: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const form = useSchemaForm(passwordProofSchema, { defaultValues: { password: "" } });
  return (
    <form id={FORM_ID} className={styles.form} onSubmit={form.submit((values) => onProof(values.password))} noValidate>
      <Field label={t("auth.password")} error={form.errorText("password")}>
        <TextInput type="password" autoComplete="current-password" {...form.register("password")} data-autofocus />
      </Field>
      <FormError form={form} />
    </form>
  );
}
