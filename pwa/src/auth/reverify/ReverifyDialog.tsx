// The re-verification dialog (spec): a sensitive action needs a proof of identity from the last ten
// minutes — the password, an authenticator code or a code sent by e-mail (with a resend link), and a
// way to use another method.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Mail, ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { queryKeys } from "../../api/queries";
import type { ReverifyMethod, User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert, TextField } from "../../forms/fields";
import { Modal } from "../../shell/Modal";
import { TOTP_CODE_PATTERN } from "../totpCode";

/** The methods a user can prove themselves with, best first. */
export function availableMethods(user: Pick<User, "totpEnabled" | "hasPassword"> | undefined): ReverifyMethod[] {
  const methods: ReverifyMethod[] = [];
  if (user?.totpEnabled) methods.push("totp");
  if (user?.hasPassword) methods.push("password");
  methods.push("email");
  return methods;
}

const ICONS = { totp: ShieldCheck, password: KeyRound, email: Mail } as const;

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
  const methods = availableMethods(user);
  const [method, setMethod] = useState<ReverifyMethod>(methods[0]!);
  const [choosing, setChoosing] = useState(false);
  const [value, setValue] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();

  const sendEmail = useMutation({
    mutationFn: () => endpoints.sendReverifyEmail(api),
  });

  const verify = useMutation({
    mutationFn: (body: { method: ReverifyMethod; password?: string; code?: string }) => endpoints.reverify(api, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      onDone();
    },
  });

  function choose(next: ReverifyMethod) {
    setMethod(next);
    setChoosing(false);
    setValue("");
    setFieldError(undefined);
    verify.reset();
    if (next === "email") sendEmail.mutate();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
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

  const emailWaiting = method === "email" && !sendEmail.isSuccess;

  return (
    <Modal title={t("reverify.title")} description={t("reverify.description")} onCancel={onCancel} testId="reverify-dialog">
      {choosing ? (
        <div className="method-list" role="group" aria-label={t("reverify.otherMethods")}>
          {methods
            .filter((m) => m !== method)
            .map((m) => {
              const Icon = ICONS[m];
              return (
                <button key={m} type="button" className="method-option" onClick={() => choose(m)}>
                  <Icon size={18} aria-hidden="true" />
                  <span>{t(`reverify.method.${m}`)}</span>
                </button>
              );
            })}
          <button type="button" className="link-button" onClick={() => setChoosing(false)}>
            {t("common.back")}
          </button>
        </div>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          {method === "email" && (
            <p className="form-text" role="status">
              {sendEmail.isSuccess
                ? t("reverify.emailSent", { email: user?.email ?? "" })
                : sendEmail.isPending
                  ? t("reverify.emailSending")
                  : t("reverify.emailIntro", { email: user?.email ?? "" })}
            </p>
          )}
          {sendEmail.isError && <FormAlert>{errorText(sendEmail.error)}</FormAlert>}
          {method === "email" && !sendEmail.isSuccess && !sendEmail.isPending && (
            <button type="button" className="button" data-autofocus onClick={() => sendEmail.mutate()}>
              <Mail size={16} aria-hidden="true" />
              {t("reverify.sendEmail")}
            </button>
          )}
          {!emailWaiting &&
            (method === "password" ? (
              <TextField
                label={t("auth.password")}
                type="password"
                name="password"
                autoComplete="current-password"
                value={value}
                onChange={(e) => setValue(e.target.value)}
                error={fieldError}
                data-autofocus
              />
            ) : (
              <TextField
                label={method === "totp" ? t("reverify.totpLabel") : t("reverify.emailCodeLabel")}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={value}
                onChange={(e) => setValue(e.target.value.replace(/\D/g, ""))}
                error={fieldError}
                data-autofocus
              />
            ))}
          {method === "email" && sendEmail.isSuccess && (
            <button type="button" className="link-button" onClick={() => sendEmail.mutate()} disabled={sendEmail.isPending}>
              {t("reverify.resend")}
            </button>
          )}
          {verify.isError && <FormAlert>{errorText(verify.error)}</FormAlert>}
          <div className="form-actions">
            {methods.length > 1 && (
              <button type="button" className="link-button form-actions-start" onClick={() => setChoosing(true)}>
                {t("reverify.useAnother")}
              </button>
            )}
            <button type="button" className="button" onClick={onCancel}>
              {t("common.cancel")}
            </button>
            <button type="submit" className="button button-primary" disabled={verify.isPending || emailWaiting}>
              {verify.isPending ? t("common.checking") : t("reverify.confirm")}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
