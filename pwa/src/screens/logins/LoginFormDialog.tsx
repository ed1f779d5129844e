// The new / edit login form (vault unlocked): institution, sign-in address, user name, secret,
// notes for heirs and the asset it opens. The plaintext is validated with the shared schema's
// loginPlaintext (secret 1–1000 characters, notes ≤ 4000) and handed to clientdb's saveLogin, which
// encrypts secret and notes before anything is written. A value a concurrent edit replaced is shown
// next to its field (secret and notes decrypted, in memory only).
import { saveLogin, type ClientDb } from "@patrimonio/clientdb";
import { loginPlaintextSchema, type LoginPlaintext } from "@patrimonio/shared-schema";
import { Eye, EyeOff } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { linkableAssets } from "../../assets/disposal";
import type { AssetRec } from "../../assets/hooks";
import { FormError } from "../../forms/FormError";
import formStyles from "../../forms/form.module.css";
import { applyIssues, useSchemaForm } from "../../forms/schemaForm";
import { Alert } from "../../ui/Alert";
import { Button, IconButton } from "../../ui/Button";
import { Combobox } from "../../ui/Combobox";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { TextArea } from "../../ui/TextArea";
import { TextInput } from "../../ui/TextInput";
import { sealerOf, type UnlockedVault } from "../../vault";
import { ConflictNote } from "../assets/common/ConflictNote";
import type { LoginRec, VaultKeyRec } from "./hooks";
import { SecretConflicts } from "./SecretConflicts";
import { NOT_FOR_PASSWORD_MANAGERS } from "./notForPasswordManagers";

export interface LoginValues {
  institution: string;
  url: string;
  username: string;
  secret: string;
  notes: string;
  assetId: string;
}

const FIELDS: readonly (keyof LoginValues)[] = ["institution", "url", "username", "secret", "notes", "assetId"];

/** Trims the plain texts (never the secret or the notes: they are kept byte for byte) and leaves out
 * what is empty. */
export function prepareLogin(values: LoginValues): LoginValues {
  const out: Record<string, string | undefined> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = key === "secret" || key === "notes" ? raw : raw.trim();
    out[key] = value === "" ? undefined : value;
  }
  return out as unknown as LoginValues;
}

interface Props {
  db: ClientDb;
  workspaceId: string;
  vault: UnlockedVault;
  /** The workspace's key records: new writes use the current key (sealerOf, currentKey). */
  keys?: readonly VaultKeyRec[];
  assets: readonly AssetRec[];
  /** The login to edit and its decrypted secret and notes; undefined for a new one. */
  editing?: { login: LoginRec; secret?: string | undefined; notes?: string | undefined } | undefined;
  onClose: () => void;
  onSaved: (id: string) => void;
}

export function LoginFormDialog({ db, workspaceId, vault, keys, assets, editing, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const [other, setOther] = useState<string[]>([]);
  const [showSecret, setShowSecret] = useState(false);
  const login = editing?.login;
  const [defaultValues] = useState<LoginValues>(() => ({
    institution: login?.fields.institution ?? "",
    url: login?.fields.url ?? "",
    username: login?.fields.username ?? "",
    secret: editing?.secret ?? "",
    notes: editing?.notes ?? "",
    assetId: login?.fields.assetId ?? "",
  }));
  const form = useSchemaForm<typeof loginPlaintextSchema, LoginValues>(loginPlaintextSchema, {
    defaultValues,
    prepare: prepareLogin,
    mode: "onTouched",
  });
  const { control, register, errorText } = form;
  // The plaintext the form opened with, cleaned as a submit cleans it: the save writes only the
  // fields changed since (another device may have changed the others meanwhile), and an unchanged
  // secret or note is not sealed again.
  const [opened] = useState(() => prepareLogin(defaultValues) as unknown as Partial<LoginPlaintext>);
  const assetOptions = useMemo(
    () =>
      linkableAssets(assets, login?.fields.assetId)
        .map((a) => ({ value: a.id, label: a.fields.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [assets, login],
  );
  const assetName = (id: string) => assets.find((a) => a.id === id)?.fields.name ?? id;
  const note = (field: "institution" | "url" | "username" | "assetId") =>
    login ? <ConflictNote recordId={login.id} field={field} format={field === "assetId" ? (v) => (typeof v === "string" ? assetName(v) : "") : undefined} /> : null;

  const onSubmit = form.submit(async (values) => {
    setOther([]);
    const result = await saveLogin(db, workspaceId, values as unknown as LoginPlaintext, sealerOf(vault, keys), login ? { id: login.id, previous: opened } : {});
    if (!result.ok) {
      setOther(applyIssues(i18n, form.setError, result.issues, FIELDS));
      return;
    }
    onSaved(result.id);
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && onClose()}
      size="md"
      title={login ? t("logins.form.editTitle") : t("logins.form.newTitle")}
      description={t("logins.form.description")}
      data-testid="login-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")} data-testid="login-save">
            {login ? t("common.saveChanges") : t("logins.form.create")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("logins.fields.institution")} error={errorText("institution")} required>
          <TextInput autoComplete="off" data-autofocus="" data-testid="login-institution" {...register("institution")} />
        </Field>
        {note("institution")}
        <div className={formStyles.grid}>
          <Field label={t("logins.fields.url")} hint={t("logins.form.urlHint")} error={errorText("url")}>
            <TextInput type="url" autoComplete="off" inputMode="url" data-testid="login-url" {...register("url")} />
          </Field>
          <Field label={t("logins.fields.username")} error={errorText("username")}>
            <TextInput autoComplete="off" data-testid="login-username" {...register("username")} />
          </Field>
        </div>
        {note("url")}
        {note("username")}
        <Field label={t("logins.fields.secret")} hint={t("logins.form.secretHint")} error={errorText("secret")}>
          <TextInput
            type={showSecret ? "text" : "password"}
            {...NOT_FOR_PASSWORD_MANAGERS}
            spellCheck={false}
            data-testid="login-secret"
            end={
              <IconButton
                label={t("logins.actions.reveal")}
                icon={showSecret ? <EyeOff size={16} /> : <Eye size={16} />}
                onClick={() => setShowSecret((s) => !s)}
                aria-pressed={showSecret}
              />
            }
            {...register("secret")}
          />
        </Field>
        {login && <SecretConflicts login={login} field="secret" vault={vault} />}
        <Field label={t("logins.fields.notes")} hint={t("logins.form.notesHint")} error={errorText("notes")}>
          <TextArea maxChars={4000} rows={3} data-testid="login-notes" {...register("notes")} />
        </Field>
        {login && <SecretConflicts login={login} field="notes" vault={vault} />}
        <Field label={t("logins.fields.asset")} hint={t("logins.form.assetHint")} error={errorText("assetId")}>
          <Controller
            name="assetId"
            control={control}
            render={({ field }) => <Combobox options={assetOptions} placeholder={t("logins.form.noAsset")} emptyText={t("logins.form.noAssets")} {...field} />}
          />
        </Field>
        {note("assetId")}
        <FormError form={form} />
        {other.length > 0 && <Alert tone="error">{other.join(" ")}</Alert>}
      </form>
    </Dialog>
  );
}
