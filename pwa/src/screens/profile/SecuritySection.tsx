// The profile's security section: the identity confirmation that sensitive changes need, the
// password, the authenticator app, passkeys (add, rename, remove) and the signed-in devices.
// Turning the authenticator off or changing passkeys needs a recent proof with a second factor when
// the user has one: the server answers "reverification_required" and the re-verification dialog
// opens by itself (the API client retries the call after it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint, KeyRound, Pencil, ShieldCheck, Trash2, UserCheck } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { queryKeys, usePasskeys } from "../../api/queries";
import type { Me, Passkey } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useRenamePasskey } from "../../auth/accountApi";
import { registerPasskey } from "../../auth/passkeys";
import { useReverify } from "../../auth/reverify/ReverifyProvider";
import { TotpSetup } from "../../auth/TotpSetup";
import { isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import formStyles from "../../forms/form.module.css";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button, IconButton } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { useFocusKeeper } from "../../ui/focusKeeper";
import { TextInput } from "../../ui/TextInput";
import { PasswordSetting } from "./PasswordSetting";
import styles from "./profile.module.css";
import { SessionsSetting } from "./SessionsSetting";

export function SecuritySection({ me }: { me: Me }) {
  const { t } = useTranslation();
  return (
    <Card title={t("profile.security.title")} description={t("profile.security.text")}>
      <div className={styles.settings}>
        <IdentityConfirmation reverifiedUntil={me.reverifiedUntil} />
        {me.provider === "local" && <PasswordSetting />}
        <AuthenticatorApp enabled={me.user.totpEnabled} />
        <Passkeys />
        {me.provider === "local" && <SessionsSetting />}
      </div>
    </Card>
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
    <div className={styles.setting} data-testid="identity-confirmation">
      <div className={styles.settingRow}>
        <span className={styles.settingIcon} aria-hidden="true">
          <UserCheck size={18} />
        </span>
        <div className={styles.settingBody}>
          <h3 className={styles.settingTitle}>{t("profile.security.confirm.title")}</h3>
          <p className={styles.settingText}>
            {valid && reverifiedUntil
              ? t("profile.security.confirm.until", { time: format.date(reverifiedUntil, { hour: "2-digit", minute: "2-digit" }) })
              : t("profile.security.confirm.text")}
          </p>
        </div>
        <Button onClick={() => void requestProof()}>{t("profile.security.confirm.action")}</Button>
      </div>
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
    <div className={styles.setting} data-testid="totp-setting">
      <div className={styles.settingRow}>
        <span className={styles.settingIcon} aria-hidden="true">
          <ShieldCheck size={18} />
        </span>
        <div className={styles.settingBody}>
          <h3 className={styles.settingTitle}>
            {t("profile.security.totp.title")} <Badge tone={enabled ? "success" : "neutral"}>{enabled ? t("common.on") : t("common.off")}</Badge>
          </h3>
          <p className={styles.settingText}>{t("profile.security.totp.text")}</p>
        </div>
        {enabled ? (
          <Button variant="danger-outline" onClick={() => disable.mutate()} loading={disable.isPending}>
            {t("profile.security.totp.disable")}
          </Button>
        ) : (
          !settingUp && <Button onClick={() => setSettingUp(true)}>{t("profile.security.totp.enable")}</Button>
        )}
      </div>
      {refused && <Alert>{errorText(disable.error)}</Alert>}
      {settingUp && !enabled && (
        <TotpSetup
          onFinished={async () => {
            await queryClient.invalidateQueries({ queryKey: queryKeys.me });
            setSettingUp(false);
            notify("success", t("profile.security.totp.enabled"));
          }}
          secondaryAction={
            <Button variant="ghost" onClick={() => setSettingUp(false)}>
              {t("common.cancel")}
            </Button>
          }
        />
      )}
    </div>
  );
}

const NO_PASSKEYS: Passkey[] = [];
const passkeyKey = (p: Passkey) => p.id;
const PASSKEY_FALLBACK = ['[data-control="add"]', '[data-control="title"]'];

function Passkeys() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const format = useFormatters();
  const passkeys = usePasskeys();
  const [renaming, setRenaming] = useState<Passkey | null>(null);
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
  const nameOf = (p: Passkey) => p.name || t("passkeys.defaultName");
  // A passkey removed with focus on its button hands focus to the same button of the next one, else
  // to "add a passkey", else to the title (ui/focusKeeper.ts).
  const root = useRef<HTMLDivElement>(null);
  useFocusKeeper(root, passkeys.data ?? NO_PASSKEYS, passkeyKey, PASSKEY_FALLBACK);

  return (
    <div className={styles.setting} data-testid="passkeys-setting" ref={root}>
      <div className={styles.settingRow}>
        <span className={styles.settingIcon} aria-hidden="true">
          <Fingerprint size={18} />
        </span>
        <div className={styles.settingBody}>
          <h3 className={styles.settingTitle} tabIndex={-1} data-control="title">
            {t("passkeys.title")}
          </h3>
          <p className={styles.settingText}>{t("passkeys.text")}</p>
        </div>
        {webauthnSupported() && (
          <Button icon={<KeyRound size={16} />} onClick={() => add.mutate()} loading={add.isPending} loadingText={t("passkeys.creating")} data-control="add">
            {t("passkeys.add")}
          </Button>
        )}
      </div>
      {shownError?.error != null && !isWebAuthnCancel(shownError.error) && (
        <Alert tone={shownError.error instanceof Error && shownError.error.name === "PasskeyExistsError" ? "info" : "error"}>
          {errorText(shownError.error)}
        </Alert>
      )}
      {passkeys.isError && <Alert>{errorText(passkeys.error)}</Alert>}
      {passkeys.data && passkeys.data.length === 0 && <p className={styles.empty}>{t("passkeys.none")}</p>}
      {passkeys.data && passkeys.data.length > 0 && (
        <ul className={styles.list} aria-label={t("passkeys.title")}>
          {passkeys.data.map((passkey) => (
            <li key={passkey.id} className={styles.item} data-row-key={passkey.id}>
              <div>
                <span className={styles.itemName}>{nameOf(passkey)}</span>
                <span className={styles.itemMeta}>
                  {t("passkeys.created", { date: dateOf(passkey.createdAt) })}
                  {" · "}
                  {passkey.lastUsedAt ? t("passkeys.lastUsed", { date: dateOf(passkey.lastUsedAt) }) : t("passkeys.neverUsed")}
                </span>
              </div>
              <span className={styles.itemActions}>
                <IconButton
                  label={t("account.passkeys.rename", { name: nameOf(passkey) })}
                  icon={<Pencil size={16} />}
                  onClick={() => setRenaming(passkey)}
                  data-control="rename"
                />
                <IconButton
                  label={t("passkeys.remove", { name: nameOf(passkey) })}
                  icon={<Trash2 size={16} />}
                  onClick={() => remove.mutate(passkey)}
                  data-control="remove"
                  loading={remove.isPending && remove.variables?.id === passkey.id}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
      {renaming && <RenamePasskey passkey={renaming} onClose={() => setRenaming(null)} />}
    </div>
  );
}

function RenamePasskey({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  return (
    <Dialog
      dirty={name !== passkey.name}
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("account.passkeys.renameTitle")}
      data-testid="rename-passkey"
      footer={
        <>
          <DialogClose>
            <Button variant="ghost">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form="rename-passkey-form" variant="primary" loading={rename.isPending}>
            {t("account.passkeys.save")}
          </Button>
        </>
      }
    >
      <form
        id="rename-passkey-form"
        className={formStyles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate(
            { id: passkey.id, name },
            {
              onSuccess: () => {
                notify("success", t("account.passkeys.renamed"));
                onClose();
              },
            },
          );
        }}
      >
        <Field label={t("account.passkeys.nameLabel")} error={rename.isError ? errorText(rename.error) : undefined} required>
          <TextInput value={name} maxLength={64} onChange={(e) => setName(e.target.value)} data-autofocus />
        </Field>
      </form>
    </Dialog>
  );
}
