// The three fields a passphrase change and a key rotation both ask for (the current passphrase, the
// new one with its strength hint, the new one again), their checks, and focus on the field a refusal
// names (which then names the error through aria-describedby). ChangePassphraseDialog and
// RotateKeyDialog differ only in what they do with them.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { VAULT_PASSPHRASE_MAX, VAULT_PASSPHRASE_MIN } from "../../vault";
import { checkNewPassphrase, StrengthHint } from "./VaultPanel";
import { NOT_FOR_PASSWORD_MANAGERS } from "./notForPasswordManagers";

/** Message keys by field ("other": not about one field). */
export interface PassphraseErrors {
  current?: string;
  passphrase?: string;
  repeat?: string;
  other?: string;
}

export function usePassphraseChange() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<PassphraseErrors>({});
  return {
    current,
    next,
    repeat,
    setCurrent,
    setNext,
    setRepeat,
    errors,
    setErrors,
    dirty: current !== "" || next !== "" || repeat !== "",
    /** What is wrong with the fields as typed (nothing: an empty object). */
    check: (): PassphraseErrors => ({ ...checkNewPassphrase(next, repeat), ...(current === "" ? { current: "vault.errors.required" } : {}) }),
    /** A message key in the reader's language, with the passphrase's limits. */
    text: (key: string | undefined) => (key ? t(key as never, { min: VAULT_PASSPHRASE_MIN, max: VAULT_PASSPHRASE_MAX }) : undefined),
  };
}

export type PassphraseChange = ReturnType<typeof usePassphraseChange>;

export function PassphraseChangeFields({ form }: { form: PassphraseChange }) {
  const { t } = useTranslation();
  const { errors, text } = form;
  const currentRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);
  // A refused passphrase: focus on its field, which then names the error (aria-describedby).
  useEffect(() => {
    const field = (errors.current ? currentRef : errors.passphrase ? nextRef : errors.repeat ? repeatRef : undefined)?.current;
    field?.focus();
    field?.select();
  }, [errors]);
  return (
    <>
      <Field label={t("vault.change.current")} error={text(errors.current)} required>
        <TextInput
          ref={currentRef}
          type="password"
          {...NOT_FOR_PASSWORD_MANAGERS}
          data-autofocus=""
          value={form.current}
          onChange={(e) => form.setCurrent(e.target.value)}
          data-testid="vault-current-passphrase"
        />
      </Field>
      <Field label={t("vault.change.next")} hint={<StrengthHint passphrase={form.next} />} error={text(errors.passphrase)} required>
        <TextInput ref={nextRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={form.next} onChange={(e) => form.setNext(e.target.value)} data-testid="vault-new-passphrase" />
      </Field>
      <Field label={t("vault.setup.repeat")} error={text(errors.repeat)} required>
        <TextInput ref={repeatRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={form.repeat} onChange={(e) => form.setRepeat(e.target.value)} data-testid="vault-repeat-passphrase" />
      </Field>
    </>
  );
}
