// Setting up the authenticator app: the QR code and the manual code from the server, a 6-digit code
// to prove it works, then the recovery codes, shown this once, to copy or download.
import { codeRequestSchema } from "@patrimonio/shared-schema";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Copy, Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../api/ApiProvider";
import { endpoints } from "../api/endpoints";
import { queryKeys } from "../api/queries";
import { FormError } from "../forms/FormError";
import formStyles from "../forms/form.module.css";
import { useSchemaForm } from "../forms/schemaForm";
import { RoutePending } from "../router/fallbacks";
import { notify } from "../toast/toast";
import { Button, buttonClass, IconButton } from "../ui/Button";
import { CodeInput } from "../ui/CodeInput";
import { Field } from "../ui/Field";
import { groupSecret } from "./totpCode";
import styles from "./TotpSetup.module.css";

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
  const form = useSchemaForm(codeRequestSchema, { defaultValues: { code: "" } });
  const enable = useMutation({
    mutationFn: (code: string) => endpoints.totpEnable(api, code),
    onSuccess: (result) => setRecoveryCodes(result.recoveryCodes),
  });

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onFinished={onFinished} />;
  if (setup.isPending) return <RoutePending />;
  if (setup.isError) {
    return (
      <div className={styles.stack}>
        <FormError error={setup.error} />
        <div className={formStyles.actions}>
          {secondaryAction}
          <Button onClick={() => void setup.refetch()}>{t("common.retry")}</Button>
        </div>
      </div>
    );
  }

  const { secret, qrPng } = setup.data;
  return (
    <div>
      <ol className={styles.steps}>
        <li>
          <p>{t("totp.scan")}</p>
          <div className={styles.qr}>
            <img src={qrPng} alt={t("totp.qrAlt")} width={200} height={200} data-testid="totp-qr" />
          </div>
        </li>
        <li>
          <p>{t("totp.manual")}</p>
          <div className={styles.secretRow}>
            <code className={styles.secret} data-testid="totp-secret" aria-label={t("totp.secretLabel")}>
              {groupSecret(secret)}
            </code>
            <IconButton
              label={t("totp.copySecret")}
              icon={<Copy size={16} />}
              onClick={() => void copyWithToast(secret, { done: t("common.copied"), failed: t("common.copyFailed") })}
            />
          </div>
        </li>
        <li>
          <form className={formStyles.form} noValidate onSubmit={form.submit((values) => enable.mutateAsync(values.code))}>
            <Field label={t("totp.codeLabel")} error={form.errorText("code")}>
              <CodeInput {...form.register("code")} />
            </Field>
            <FormError form={form} />
            <div className={formStyles.actions}>
              {secondaryAction}
              <Button type="submit" variant="primary" loading={enable.isPending} loadingText={t("common.checking")}>
                {t("totp.verify")}
              </Button>
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
    <section aria-labelledby="recovery-title" data-testid="recovery-codes">
      <h2 id="recovery-title" className={styles.title}>
        {t("totp.recovery.title")}
      </h2>
      <p className={styles.text}>{t("totp.recovery.text")}</p>
      <ol className={styles.codes}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={`${formStyles.actions} ${styles.actionsStart}`}>
        <Button icon={<Copy size={16} />} onClick={() => void copyWithToast(text, { done: t("common.copied"), failed: t("common.copyFailed") })}>
          {t("totp.recovery.copy")}
        </Button>
        <a
          className={buttonClass({})}
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={t("totp.recovery.fileName")}
        >
          <Download size={16} aria-hidden="true" />
          {t("totp.recovery.download")}
        </a>
      </div>
      <div className={formStyles.actions}>
        <Button
          variant="primary"
          loading={busy}
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
        </Button>
      </div>
    </section>
  );
}
