// The "linked account" card of an asset fed by a bank or broker connection: through whom, the last
// balance read, the consent's end shown ahead of time with "renew" (the institution's page opens),
// and "update balance" within the provider's daily reads. Online only: the balances themselves are
// the asset's valuations on the device, so offline (or for an asset no connection feeds) the card
// is simply not shown.
import { useTranslation } from "react-i18next";
import {
  goToInstitution,
  useRefreshConnectionMutation,
  useRenewConnectionMutation,
  useWorkspaceConnections,
} from "../../api/connections";
import { useErrorText } from "../../api/useErrorText";
import { useFormatters } from "../../i18n/useFormatters";
import { useLanguage } from "../../i18n/useLanguage";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import styles from "./Connect.module.css";

const PROVIDER_TITLES: Record<string, string> = { enablebanking: "Enable Banking", snaptrade: "SnapTrade" };

export function AssetConnection({ workspaceId, assetId, canEdit }: { workspaceId: string; assetId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const format = useFormatters();
  const errorText = useErrorText();
  const connections = useWorkspaceConnections(workspaceId);
  const refresh = useRefreshConnectionMutation({
    onSuccess: (r) => notify(r.refreshed > 0 ? "success" : "info", r.refreshed > 0 ? t("connect.asset.refreshed") : t("connect.asset.limited")),
  });
  const renew = useRenewConnectionMutation({ onSuccess: (s) => goToInstitution(s.redirectUrl) });
  const connection = connections.data?.find((c) => c.accounts.some((a) => a.assetId === assetId));
  const account = connection?.accounts.find((a) => a.assetId === assetId);
  if (!connection || !account) return null;

  const expired = connection.status === "expired";
  const expires = connection.consentExpiresAt ? format.date(connection.consentExpiresAt) : null;
  return (
    <Card title={t("connect.asset.title")} data-testid="asset-connection">
      <div className={styles.rowMain}>
        <p>{t("connect.asset.through", { provider: PROVIDER_TITLES[connection.provider] ?? connection.provider, institution: connection.institution.name })}</p>
        {account.lastBalance !== null && account.lastBalanceDate !== null && (
          <p data-testid="asset-connection-balance">
            {t("connect.asset.lastBalance", { amount: format.money(account.lastBalance, account.currency), date: format.date(account.lastBalanceDate) })}
          </p>
        )}
        {expired ? (
          <Alert tone="warning">{t("connect.asset.expired")}</Alert>
        ) : connection.renewSoon && expires ? (
          <Alert tone="warning">{t("connect.asset.expiresSoon", { date: expires })}</Alert>
        ) : (
          expires && <p className={styles.muted}>{t("connect.asset.expires", { date: expires })}</p>
        )}
        {(refresh.isError || renew.isError) && <Alert>{errorText(refresh.error ?? renew.error)}</Alert>}
      </div>
      {canEdit && (
        <div className={styles.actions}>
          {(expired || connection.renewSoon) && (
            <Button type="button" loading={renew.isPending} onClick={() => renew.mutate({ id: connection.id, language })} data-testid="asset-connection-renew">
              {t("connect.asset.renew")}
            </Button>
          )}
          {!expired && (
            <Button
              type="button"
              variant="secondary"
              loading={refresh.isPending}
              disabled={account.readsLeftToday === 0}
              onClick={() => refresh.mutate(connection.id)}
              data-testid="asset-connection-refresh"
            >
              {t("connect.asset.refresh")}
            </Button>
          )}
          <span className={styles.muted}>{t("connect.asset.readsLeft", { count: account.readsLeftToday })}</span>
        </div>
      )}
    </Card>
  );
}
