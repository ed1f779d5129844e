import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, ERROR_CODES } from "./client";
import { isWebAuthnCancel } from "../auth/webauthn";

/**
 * Turns any failure into a sentence for the user, in the active language. The server's messages are
 * already translated (Accept-Language); failures without one get the app's own texts.
 */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        if (error.code === ERROR_CODES.network) return t("errors.network");
        if (error.code === ERROR_CODES.badResponse) return t("errors.badResponse");
        if (error.code === ERROR_CODES.internal) return t("errors.internal");
        if (error.code === ERROR_CODES.tooManyRequests && !error.message) return t("errors.tooManyRequests");
        return error.message || t("errors.unknown");
      }
      if (isWebAuthnCancel(error)) return t("passkeys.cancelled");
      if (error instanceof Error && error.name === "PasskeyExistsError") return t("account.passkeys.exists"); // auth/passkeys.ts
      return t("errors.unknown");
    },
    [t],
  );
}
