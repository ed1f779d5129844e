// The "linked account" card of an asset fed by a bank or broker connection: through whom, the last
// balance read, a brokerage account's positions (each an asset of its own, linked), the consent's
// end shown ahead of time with "renew" (the institution's page opens), and "update balance" within
// the provider's daily reads. On a position's own asset it says whose account it belongs to and its
// last price. Online only: the balances and positions themselves are assets and valuations on the
// device, so offline (or for an asset no connection feeds) the card is simply not shown.
import { Link } from "@tanstack/react-router";
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
import { ConnectionPositions } from "./ConnectionPositions";

const PROVIDER_TITLES: Record<string, string> = { enablebanking: "Enable Banking", snaptrade: "SnapTrade" };

/** `disposed`: the asset is marked sold (or otherwise disposed of): the server neither reads nor
 * writes it for the connection until the sale is undone, so the card says so and offers no update. */
export function AssetConnection({ workspaceId, assetId, canEdit, disposed = false }: { workspaceId: string; assetId: string; canEdit: boolean; disposed?: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const format = useFormatters();
  const errorText = useErrorText();
  const connections = useWorkspaceConnections(workspaceId);
  const refresh = useRefreshConnectionMutation({
    onSuccess: (r) =>
      r.refreshed > 0
        ? notify("success", t("connect.asset.refreshed"))
        : r.failed > 0
          ? notify("warning", t("connect.asset.accountError"))
          : notify("info", t("connect.asset.limited")),
  });
  const renew = useRenewConnectionMutation({ onSuccess: (s) => goToInstitution(s.redirectUrl) });
  const feeds = (a: { assetId: string | null; positions?: { assetId: string | null }[] }) =>
    a.assetId === assetId || (a.positions ?? []).some((p) => p.assetId === assetId);
  const connection = connections.data?.find((c) => c.accounts.some(feeds));
  const account = connection?.accounts.find(feeds);
  if (!connection || !account) return null;
  const position = account.assetId === assetId ? undefined : account.positions.find((p) => p.assetId === assetId);

  const expired = connection.status === "expired";
  const expires = connection.consentExpiresAt ? format.date(connection.consentExpiresAt) : null;
  return (
    <Card title={t("connect.asset.title")} data-testid="asset-connection">
      <div className={styles.rowMain}>
        {!position && (
          <p>{t("connect.asset.through", { provider: PROVIDER_TITLES[connection.provider] ?? connection.provider, institution: connection.institution.name })}</p>
        )}
        {position ? (
          <>
            <p data-testid="asset-connection-position">{t("connect.positions.positionOf", { account: account.name, provider: PROVIDER_TITLES[connection.provider] ?? connection.provider, institution: connection.institution.name })}</p>
            <p data-testid="asset-connection-balance">
              {position.status === "closed"
                ? t("connect.positions.soldOn", { date: format.date(position.date) })
                : t("connect.positions.lastPrice", {
                    price: format.number(position.price, { style: "currency", currency: position.currency, maximumFractionDigits: 6 }),
                    date: format.date(position.date),
                    value: format.money(position.value, position.currency),
                  })}
            </p>
          </>
        ) : (
          account.lastBalance !== null &&
          account.lastBalanceDate !== null && (
            <p data-testid="asset-connection-balance">
              {t("connect.asset.lastBalance", { amount: format.money(account.lastBalance, account.currency), date: format.date(account.lastBalanceDate) })}
            </p>
          )
        )}
        {!position && (
          <ConnectionPositions
            positions={account.positions}
            name={(p) =>
              p.assetId ? (
                <Link to="/assets/$assetId" params={{ assetId: p.assetId }} search={{ tab: "details" }}>
                  {p.name}
                </Link>
              ) : (
                p.name
              )
            }
          />
        )}
        {disposed ? (
          <p className={styles.muted} data-testid="asset-connection-disposed">
            {t("connect.asset.disposed")}
          </p>
        ) : account.detached ? (
          <Alert tone="warning">{t("connect.asset.detached")}</Alert>
        ) : (
          account.lastError && <Alert tone="warning">{t("connect.asset.accountError")}</Alert>
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
          {(expired || connection.renewSoon) && connection.linkedByMe && (
            <Button type="button" loading={renew.isPending} onClick={() => renew.mutate({ id: connection.id, language })} data-testid="asset-connection-renew">
              {t("connect.asset.renew")}
            </Button>
          )}
          {!expired && !account.detached && !disposed && (
            <Button
              type="button"
              variant="secondary"
              loading={refresh.isPending}
              disabled={account.readsLeftToday === 0}
              onClick={() => refresh.mutate(connection.id)}
              data-testid="asset-connection-refresh"
            >
              {account.kind === "brokerage" ? t("connect.positions.refresh") : t("connect.asset.refresh")}
            </Button>
          )}
          <span className={styles.muted}>{t("connect.asset.readsLeft", { count: account.readsLeftToday })}</span>
        </div>
      )}
    </Card>
  );
}
