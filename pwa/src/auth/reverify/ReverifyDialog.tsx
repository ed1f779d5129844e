// The re-verification dialog (spec): a sensitive action needs a proof of identity from the last ten
// minutes — an authenticator code, a passkey, the password or a code sent by e-mail (with a resend
// link that counts down its cooldown), and a way to use another method. Changing a second factor
// needs a proof with one (the authenticator or a passkey) when the user has one: those come first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint, KeyRound, Mail, ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { queryKeys, useAuthConfig } from "../../api/queries";
import type { User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Dialog } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { accountApi } from "../accountApi";
import { TOTP_CODE_PATTERN } from "../totpCode";
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

interface ReverifyDialogProps {
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
  const [value, setValue] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
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
    mutationFn: (body: { method: "totp" | "password" | "email"; password?: string; code?: string }) => endpoints.reverify(api, body),
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
    setValue("");
    setFieldError(undefined);
    verify.reset();
    passkey.reset();
    if (next === "email" && !emailAsked) sendEmail.mutate();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (method === "passkey") return passkey.mutate();
    const input = value.trim();
    if (method === "password") {
      if (input === "") return setFieldError(t("reverify.passwordRequired"));
      setFieldError(undefined);
      verify.mutate({ method, password: value });
      return;
    }
    if (!TOTP_CODE_PATTERN.test(input)) return setFieldError(t("auth.codeInvalid"));
    setFieldError(undefined);
    verify.mutate({ method, code: input });
  }

  const emailWaiting = method === "email" && !emailAsked;
  const sendRefused = sendEmail.isError && !cooldown.secondsLeft;
  const busy = verify.isPending || passkey.isPending;
  const failed = [verify, passkey].find((m) => m.isError && !isWebAuthnCancel(m.error));

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
            <Button type="submit" form="reverify-form" variant="primary" loading={busy} loadingText={t("common.checking")} disabled={emailWaiting}>
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
        <form id="reverify-form" className={styles.form} onSubmit={onSubmit} noValidate>
          {method === "email" && (
            <p className={styles.text} role="status">
              {sendEmail.isPending
                ? t("reverify.emailSending")
                : emailAsked
                  ? t("reverify.emailSent", { email: user?.email ?? "" })
                  : t("reverify.emailIntro", { email: user?.email ?? "" })}
            </p>
          )}
          {method === "passkey" && <p className={styles.text}>{t("account.reverify.passkeyText")}</p>}
          {sendRefused && <Alert>{errorText(sendEmail.error)}</Alert>}
          {emailWaiting && !sendEmail.isPending && (
            <Button icon={<Mail size={16} />} data-autofocus onClick={() => sendEmail.mutate()}>
              {t("reverify.sendEmail")}
            </Button>
          )}
          {!emailWaiting && method === "password" && (
            <Field label={t("auth.password")} error={fieldError}>
              <TextInput type="password" name="password" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} data-autofocus />
            </Field>
          )}
          {!emailWaiting && (method === "totp" || method === "email") && (
            <Field label={method === "totp" ? t("reverify.totpLabel") : t("reverify.emailCodeLabel")} error={fieldError}>
              <CodeInput name="code" value={value} onChange={(e) => setValue(e.target.value)} data-autofocus />
            </Field>
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
          {failed && <Alert>{errorText(failed.error)}</Alert>}
        </form>
      )}
    </Dialog>
  );
}
