// Setting up the authenticator app: the QR code and the manual code from the server, a 6-digit code
// to prove it works, then the recovery codes, shown this once, to copy or download.
import { useMutation, useQuery } from "@tanstack/react-query";
import { Copy, Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi } from "../api/ApiProvider";
import { endpoints } from "../api/endpoints";
import { queryKeys } from "../api/queries";
import { useErrorText } from "../api/useErrorText";
import { FormAlert, TextField } from "../forms/fields";
import { RoutePending } from "../router/fallbacks";
import { notify } from "../toast/toast";
import { groupSecret, TOTP_CODE_PATTERN } from "./totpCode";

/** Copies to the clipboard and says so in a toast. */
async function copyWithToast(text: string, messages: { done: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify("success", messages.done);
  } catch {
    notify("error", messages.failed);
  }
}

interface TotpSetupProps {
  /** After the codes are saved: the user pressed Continue. */
  onFinished: () => void | Promise<void>;
  /** Rendered beside the verify button (onboarding: "Skip for now"; profile: "Cancel"). */
  secondaryAction?: ReactNode;
}

export function TotpSetup({ onFinished, secondaryAction }: TotpSetupProps) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  // A query, not an effect: one setup request however often the screen mounts (StrictMode), and a
  // fresh secret every time the screen opens anew (gcTime 0).
  const setup = useQuery({
    queryKey: queryKeys.totpSetup,
    queryFn: () => endpoints.totpSetup(api),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: "" } });
  const enable = useMutation({
    mutationFn: (code: string) => endpoints.totpEnable(api, code),
    onSuccess: (result) => setRecoveryCodes(result.recoveryCodes),
  });

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onFinished={onFinished} />;
  if (setup.isPending) return <RoutePending />;
  if (setup.isError) {
    return (
      <div className="stack">
        <FormAlert>{errorText(setup.error)}</FormAlert>
        <div className="form-actions">
          {secondaryAction}
          <button type="button" className="button" onClick={() => void setup.refetch()}>
            {t("common.retry")}
          </button>
        </div>
      </div>
    );
  }

  const { secret, qrPng } = setup.data;
  return (
    <div className="totp-setup">
      <ol className="totp-steps">
        <li>
          <p>{t("totp.scan")}</p>
          <div className="totp-qr">
            <img src={qrPng} alt={t("totp.qrAlt")} width={200} height={200} data-testid="totp-qr" />
          </div>
        </li>
        <li>
          <p>{t("totp.manual")}</p>
          <div className="secret-row">
            <code className="secret" data-testid="totp-secret" aria-label={t("totp.secretLabel")}>
              {groupSecret(secret)}
            </code>
            <button
              type="button"
              className="icon-button"
              aria-label={t("totp.copySecret")}
              title={t("totp.copySecret")}
              onClick={() => void copyWithToast(secret, { done: t("common.copied"), failed: t("common.copyFailed") })}
            >
              <Copy size={16} aria-hidden="true" />
            </button>
          </div>
        </li>
        <li>
          <form className="form" noValidate onSubmit={handleSubmit((values) => enable.mutate(values.code.trim()))}>
            <TextField
              label={t("totp.codeLabel")}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="input-code"
              error={errors.code?.message}
              {...register("code", { validate: (v) => (TOTP_CODE_PATTERN.test(v.trim()) ? true : t("auth.codeInvalid")) })}
            />
            {enable.isError && <FormAlert>{errorText(enable.error)}</FormAlert>}
            <div className="form-actions">
              {secondaryAction}
              <button type="submit" className="button button-primary" disabled={enable.isPending}>
                {enable.isPending ? t("common.checking") : t("totp.verify")}
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** The recovery codes, shown once: copy, download, then continue. */
export function RecoveryCodes({ codes, onFinished }: { codes: string[]; onFinished: () => void | Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const text = codes.join("\n") + "\n";
  return (
    <section className="recovery" aria-labelledby="recovery-title" data-testid="recovery-codes">
      <h2 id="recovery-title" className="section-title">
        {t("totp.recovery.title")}
      </h2>
      <p className="section-text">{t("totp.recovery.text")}</p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions form-actions-start">
        <button
          type="button"
          className="button"
          onClick={() => void copyWithToast(text, { done: t("common.copied"), failed: t("common.copyFailed") })}
        >
          <Copy size={16} aria-hidden="true" />
          {t("totp.recovery.copy")}
        </button>
        <a
          className="button"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={t("totp.recovery.fileName")}
        >
          <Download size={16} aria-hidden="true" />
          {t("totp.recovery.download")}
        </a>
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onFinished();
            } finally {
              setBusy(false);
            }
          }}
        >
          {t("totp.recovery.saved")}
        </button>
      </div>
    </section>
  );
}
