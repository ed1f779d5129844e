// The profile's password: change it with the current one (and a recent proof, with the second factor
// when the user has one: the re-verification dialog opens by itself). The other devices are signed
// out by the server.
import { passwordChangeRequestSchema } from "@patrimonio/shared-schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { accountApi, sessionsKey } from "../../auth/accountApi";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { useSchemaForm } from "../../forms/schemaForm";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import styles from "./profile.module.css";

export function PasswordSetting() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.setting} data-testid="password-setting">
      <div className={styles.settingRow}>
        <span className={styles.settingIcon} aria-hidden="true">
          <KeyRound size={18} />
        </span>
        <div className={styles.settingBody}>
          <h3 className={styles.settingTitle}>{t("account.password.title")}</h3>
          <p className={styles.settingText}>{t("account.password.text")}</p>
        </div>
        {!open && <Button onClick={() => setOpen(true)}>{t("account.password.change")}</Button>}
      </div>
      {open && <PasswordForm onDone={() => setOpen(false)} />}
    </div>
  );
}

function PasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useSchemaForm(passwordChangeRequestSchema, { defaultValues: { currentPassword: "", newPassword: "" } });
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => accountApi.changePassword(api, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
      notify("success", t("account.password.changed"));
      onDone();
    },
  });
  return (
    <form
      className={formStyles.form}
      noValidate
      onSubmit={form.submit(async (values) => {
        if (repeat !== values.newPassword) {
          setMismatch(true);
          return;
        }
        setMismatch(false);
        await change.mutateAsync(values);
      })}
    >
      <Field label={t("account.password.current")} error={form.errorText("currentPassword")} required>
        <TextInput type="password" autoComplete="current-password" data-autofocus {...form.register("currentPassword")} />
      </Field>
      <Field label={t("account.password.new")} hint={t("account.password.newHint")} error={form.errorText("newPassword")} required>
        <TextInput type="password" autoComplete="new-password" {...form.register("newPassword")} />
      </Field>
      <Field label={t("account.password.confirm")} error={mismatch ? t("account.password.mismatch") : undefined} required>
        <TextInput type="password" autoComplete="new-password" name="repeat" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
      </Field>
      <FormError form={form} />
      <div className={formStyles.actions}>
        <Button variant="ghost" onClick={onDone}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="primary" loading={change.isPending} loadingText={t("account.password.saving")}>
          {t("account.password.save")}
        </Button>
      </div>
    </form>
  );
}
