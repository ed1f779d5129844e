// The profile's picture and username (spec §5): a JPG, PNG, GIF or WEBP image under 10 MB (the
// server checks the content and stores it resized), and a username of 3 to 20 characters, unique.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ImageUp, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { API_BASE_URL, ApiError, codeForStatus, parseErrorBody } from "../../api/client";
import { queryKeys } from "../../api/queries";
import type { User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { avatarChanged, UserAvatar } from "../../auth/UserAvatar";
import formStyles from "../../forms/form.module.css";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import styles from "./profile.module.css";

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const MAX_BYTES = 10 * 1024 * 1024;
const USERNAME_MIN = 3;
const USERNAME_MAX = 20;

export function ProfileIdentity({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [username, setUsername] = useState(user.username ?? "");
  const [usernameError, setUsernameError] = useState<string | undefined>();

  const refreshMe = () => queryClient.invalidateQueries({ queryKey: queryKeys.me });
  const upload = useMutation({
    mutationFn: (file: File) => uploadAvatar(file, i18n.resolvedLanguage ?? "es"),
    onSuccess: async () => {
      avatarChanged();
      await refreshMe();
      notify("success", t("account.profile.imageSaved"));
    },
  });
  const remove = useMutation({
    mutationFn: () => api.delete<void>("/users/avatar"),
    onSuccess: async () => {
      avatarChanged();
      await refreshMe();
    },
  });
  const saveUsername = useMutation({
    mutationFn: (name: string) => api.request<unknown>("PUT", "/users/username", { body: { username: name } }),
    onSuccess: async () => {
      await refreshMe();
      notify("success", t("account.profile.usernameSaved"));
    },
    onError: (error) => setUsernameError(errorText(error)),
  });

  function choose(file: File | undefined) {
    if (!file) return;
    if (file.size >= MAX_BYTES) return setLocalError(t("account.profile.imageTooLarge"));
    if (file.type && !IMAGE_TYPES.includes(file.type)) return setLocalError(t("account.profile.imageType"));
    setLocalError(null);
    upload.mutate(file);
  }

  const shownError = localError ?? (upload.isError ? errorText(upload.error) : remove.isError ? errorText(remove.error) : null);

  return (
    <div className={styles.settings} data-testid="profile-identity">
      <div className={styles.setting}>
        <div className={styles.settingRow}>
          <UserAvatar user={user} size={64} />
          <div className={styles.settingBody}>
            <h3 className={styles.settingTitle}>{t("account.profile.imageTitle")}</h3>
            <p className={styles.settingText}>{t("account.profile.imageText")}</p>
          </div>
          <input
            ref={input}
            type="file"
            accept={IMAGE_TYPES.join(",")}
            hidden
            aria-label={t("account.profile.imageChoose")}
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
          <Button icon={<ImageUp size={16} />} loading={upload.isPending} onClick={() => input.current?.click()}>
            {t("account.profile.imageChoose")}
          </Button>
          {user.hasAvatar && (
            <Button variant="ghost" icon={<Trash2 size={16} />} loading={remove.isPending} onClick={() => remove.mutate()}>
              {t("account.profile.imageRemove")}
            </Button>
          )}
        </div>
        {shownError && <Alert>{shownError}</Alert>}
      </div>
      <form
        className={`${styles.setting} ${styles.inlineSetting} ${formStyles.inline}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = username.trim();
          const n = [...name].length;
          if (name !== "" && (n < USERNAME_MIN || n > USERNAME_MAX)) {
            return setUsernameError(t("account.profile.usernameLength", { min: USERNAME_MIN, max: USERNAME_MAX }));
          }
          setUsernameError(undefined);
          saveUsername.mutate(name);
        }}
      >
        <Field label={t("account.profile.username")} hint={t("account.profile.usernameHint")} error={usernameError}>
          <TextInput value={username} autoComplete="username" spellCheck={false} onChange={(e) => setUsername(e.target.value)} />
        </Field>
        <Button type="submit" loading={saveUsername.isPending}>
          {t("common.saveChanges")}
        </Button>
      </form>
    </div>
  );
}

/** PUT /users/avatar with the file itself as the body (the API client sends JSON only). */
async function uploadAvatar(file: File, language: string): Promise<void> {
  const response = await fetch(`${API_BASE_URL}/users/avatar`, {
    method: "PUT",
    body: file,
    credentials: "include",
    headers: { Accept: "application/json", "Accept-Language": language, "Content-Type": file.type || "application/octet-stream" },
  });
  if (response.ok) return;
  const parsed = parseErrorBody(await response.json().catch(() => null));
  throw new ApiError(response.status, parsed?.code ?? codeForStatus(response.status), parsed?.message ?? response.statusText);
}
