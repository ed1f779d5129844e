// The profile's security section. Turning the authenticator app off, adding or removing a passkey
// need a recent proof of identity: the server answers "reverification_required" and the
// re-verification dialog opens by itself (the API client retries the call after it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint, KeyRound, ShieldCheck, Trash2, UserCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { queryKeys, usePasskeys } from "../../api/queries";
import type { Me, Passkey } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { registerPasskey } from "../../auth/passkeys";
import { useReverify } from "../../auth/reverify/ReverifyProvider";
import { TotpSetup } from "../../auth/TotpSetup";
import { isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import { FormAlert } from "../../forms/fields";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";

export function SecuritySection({ me }: { me: Me }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="profile-security">
      <h2 id="profile-security" className="section-title">
        {t("profile.security.title")}
      </h2>
      <p className="section-text">{t("profile.security.text")}</p>
      <div className="settings-list">
        <IdentityConfirmation reverifiedUntil={me.reverifiedUntil} />
        <AuthenticatorApp enabled={me.user.totpEnabled} />
        <Passkeys />
      </div>
    </section>
  );
}

function useStillValid(until: string | null): boolean {
  // Read once per render; the server is the judge, this only chooses what to show.
  const [now] = useState(() => Date.now());
  return until !== null && Date.parse(until) > now;
}

function IdentityConfirmation({ reverifiedUntil }: { reverifiedUntil: string | null }) {
  const { t } = useTranslation();
  const { requestProof } = useReverify();
  const format = useFormatters();
  const valid = useStillValid(reverifiedUntil);
  return (
    <div className="setting" data-testid="identity-confirmation">
      <span className="setting-icon" aria-hidden="true">
        <UserCheck size={18} />
      </span>
      <div className="setting-body">
        <h3 className="setting-title">{t("profile.security.confirm.title")}</h3>
        <p className="setting-text">
          {valid && reverifiedUntil
            ? t("profile.security.confirm.until", { time: format.date(reverifiedUntil, { hour: "2-digit", minute: "2-digit" }) })
            : t("profile.security.confirm.text")}
        </p>
      </div>
      <button type="button" className="button" onClick={() => void requestProof()}>
        {t("profile.security.confirm.action")}
      </button>
    </div>
  );
}

function AuthenticatorApp({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const [settingUp, setSettingUp] = useState(false);
  const disable = useMutation({
    mutationFn: () => endpoints.totpDisable(api),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      notify("success", t("profile.security.totp.disabled"));
    },
  });
  const refused = disable.isError && !isApiError(disable.error, ERROR_CODES.reverificationRequired);

  return (
    <div className="setting" data-testid="totp-setting">
      <span className="setting-icon" aria-hidden="true">
        <ShieldCheck size={18} />
      </span>
      <div className="setting-body">
        <h3 className="setting-title">
          {t("profile.security.totp.title")}{" "}
          <span className={enabled ? "badge badge-success" : "badge"}>{enabled ? t("common.on") : t("common.off")}</span>
        </h3>
        <p className="setting-text">{t("profile.security.totp.text")}</p>
        {refused && <FormAlert>{errorText(disable.error)}</FormAlert>}
        {settingUp && !enabled && (
          <div className="setting-panel">
            <TotpSetup
              onFinished={async () => {
                await queryClient.invalidateQueries({ queryKey: queryKeys.me });
                setSettingUp(false);
                notify("success", t("profile.security.totp.enabled"));
              }}
              secondaryAction={
                <button type="button" className="button button-ghost" onClick={() => setSettingUp(false)}>
                  {t("common.cancel")}
                </button>
              }
            />
          </div>
        )}
      </div>
      {enabled ? (
        <button type="button" className="button button-danger" onClick={() => disable.mutate()} disabled={disable.isPending}>
          {t("profile.security.totp.disable")}
        </button>
      ) : (
        !settingUp && (
          <button type="button" className="button" onClick={() => setSettingUp(true)}>
            {t("profile.security.totp.enable")}
          </button>
        )
      )}
    </div>
  );
}

function Passkeys() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const format = useFormatters();
  const passkeys = usePasskeys();
  const add = useMutation({
    mutationFn: () => registerPasskey(api, t("passkeys.defaultName")),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
      notify("success", t("passkeys.added"));
    },
  });
  const remove = useMutation({
    mutationFn: (passkey: Passkey) => endpoints.removePasskey(api, passkey.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
      notify("success", t("passkeys.removed"));
    },
  });
  const shownError = [add, remove].find((m) => m.isError && !isApiError(m.error, ERROR_CODES.reverificationRequired));
  const dateOf = (iso: string) => format.date(iso, { dateStyle: "medium" });

  return (
    <div className="setting setting-column" data-testid="passkeys-setting">
      <div className="setting-row">
        <span className="setting-icon" aria-hidden="true">
          <Fingerprint size={18} />
        </span>
        <div className="setting-body">
          <h3 className="setting-title">{t("passkeys.title")}</h3>
          <p className="setting-text">{t("passkeys.text")}</p>
        </div>
        {webauthnSupported() && (
          <button type="button" className="button" onClick={() => add.mutate()} disabled={add.isPending}>
            <KeyRound size={16} aria-hidden="true" />
            {add.isPending ? t("passkeys.creating") : t("passkeys.add")}
          </button>
        )}
      </div>
      {shownError?.error != null && !isWebAuthnCancel(shownError.error) && <FormAlert>{errorText(shownError.error)}</FormAlert>}
      {passkeys.isError && <FormAlert>{errorText(passkeys.error)}</FormAlert>}
      {passkeys.data && passkeys.data.length === 0 && <p className="setting-empty">{t("passkeys.none")}</p>}
      {passkeys.data && passkeys.data.length > 0 && (
        <ul className="passkey-list" aria-label={t("passkeys.title")}>
          {passkeys.data.map((passkey) => (
            <li key={passkey.id} className="passkey-item">
              <div>
                <span className="passkey-name">{passkey.name || t("passkeys.defaultName")}</span>
                <span className="passkey-meta">
                  {t("passkeys.created", { date: dateOf(passkey.createdAt) })}
                  {" · "}
                  {passkey.lastUsedAt ? t("passkeys.lastUsed", { date: dateOf(passkey.lastUsedAt) }) : t("passkeys.neverUsed")}
                </span>
              </div>
              <button
                type="button"
                className="icon-button icon-button-danger"
                aria-label={t("passkeys.remove", { name: passkey.name || t("passkeys.defaultName") })}
                title={t("passkeys.remove", { name: passkey.name || t("passkeys.defaultName") })}
                onClick={() => remove.mutate(passkey)}
                disabled={remove.isPending}
              >
                <Trash2 size={16} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
