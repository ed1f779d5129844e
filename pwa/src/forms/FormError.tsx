// The form-level alert of a schema form (useSchemaForm): the last submission's failure that is not
// on a field — the server's message (already in the active language), a wait after too many
// attempts (429 with Retry-After), or the app's text for a network failure.
import { useTranslation } from "react-i18next";
import { ApiError, ERROR_CODES } from "../api/client";
import { useErrorText } from "../api/useErrorText";
import { Alert } from "../ui/Alert";

export function FormError({ form, error, className }: { form?: { formError: unknown }; error?: unknown; className?: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const shown = error ?? form?.formError;
  if (shown == null) return null;
  const wait =
    shown instanceof ApiError && shown.code === ERROR_CODES.tooManyRequests && shown.retryAfter !== undefined && !shown.message
      ? t("forms.retryAfter", { count: shown.retryAfter })
      : null;
  return (
    <Alert tone="error" {...(className ? { className } : {})}>
      {wait ?? errorText(shown)}
    </Alert>
  );
}
