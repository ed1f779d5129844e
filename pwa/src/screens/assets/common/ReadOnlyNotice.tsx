// For viewers: why every asset screen is read-only (nothing for owners and editors).
import { useTranslation } from "react-i18next";
import { useAssetWorkspace } from "../../../assets/hooks";
import { Alert } from "../../../ui/Alert";

export function ReadOnlyNotice({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { readOnlyReasonKey } = useAssetWorkspace();
  if (readOnlyReasonKey === null) return null;
  return (
    <Alert tone="info" title={t("assets.readOnly.title")} className={className}>
      <span data-testid="read-only-notice">{t(readOnlyReasonKey as never)}</span>
    </Alert>
  );
}
