// /connect/return?…: the institution sent the browser back. The screen hands what it sent (the code
// or the error, and the state) to the server once, then lists the accounts found: the member chooses
// which become assets and as which class (bank account or investment); the IBAN is shown masked.
// Accounts that already feed an asset (a renewed consent) are marked, never added twice. The assets
// are written by the server and reach this and every other device through sync.
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  useAdoptAccountsMutation,
  useCompleteConnectionMutation,
  type Connection,
  type ConnectionAdoptRequest,
} from "../../api/connections";
import { useErrorText } from "../../api/useErrorText";
import { useFormatters } from "../../i18n/useFormatters";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Checkbox } from "../../ui/Checkbox";
import { cx } from "../../ui/cx";
import { NativeSelect } from "../../ui/NativeSelect";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import page from "../page.module.css";
import styles from "./Connect.module.css";

type AssetClass = ConnectionAdoptRequest["accounts"][number]["assetClass"];

/** The query the institution sent back, read once (the screen then takes it off the address, so a
 * reload does not send a used code again). */
function readReturn(): { state: string; params: Record<string, string> } | null {
  const query = new URLSearchParams(window.location.search);
  const state = query.get("state");
  if (!state) return null;
  const params: Record<string, string> = {};
  query.forEach((value, key) => {
    if (/^[A-Za-z0-9_.-]{1,64}$/.test(key)) params[key] = value.slice(0, 4000);
  });
  return { state, params };
}

export function ConnectReturnScreen() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [back] = useState(readReturn);
  const complete = useCompleteConnectionMutation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || back === null) return;
    started.current = true;
    window.history.replaceState(window.history.state, "", "/connect/return");
    complete.mutate(back);
  }, [back, complete]);

  let body;
  if (back === null && complete.isIdle) {
    body = (
      <Alert tone="info">
        {t("connect.return.missing")} <Link to="/connect">{t("connect.return.again")}</Link>
      </Alert>
    );
  } else if (complete.isError) {
    body = (
      <Alert>
        {errorText(complete.error)} <Link to="/connect">{t("connect.return.again")}</Link>
      </Alert>
    );
  } else if (complete.data) {
    body = <ChooseAccounts connection={complete.data} />;
  } else {
    body = (
      <Card title={t("connect.return.completing")}>
        <Skeleton lines={4} />
      </Card>
    );
  }
  return (
    <div className={cx(page.page, page.medium)} data-testid="connect-return">
      <PageHeader title={t("connect.titles.return")} />
      {body}
    </div>
  );
}

function ChooseAccounts({ connection }: { connection: Connection }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormatters();
  const defaultClass: AssetClass = connection.kind === "brokerage" ? "investments" : "bank_accounts";
  const open = connection.accounts.filter((a) => a.assetId === null);
  const [chosen, setChosen] = useState<Record<string, AssetClass | null>>(() =>
    Object.fromEntries(open.map((a) => [a.id, defaultClass])),
  );
  const adopt = useAdoptAccountsMutation();
  const picks = Object.entries(chosen).flatMap(([accountId, assetClass]) => (assetClass ? [{ accountId, assetClass }] : []));

  if (adopt.isSuccess) {
    return (
      <Alert tone="success" title={t("connect.return.added")}>
        <Link to="/assets" className={buttonClass({ variant: "primary", size: "sm" })} data-testid="connect-see-assets">
          {t("connect.return.seeAssets")}
        </Link>
      </Alert>
    );
  }
  return (
    <Card
      title={t("connect.return.intro", { institution: connection.institution.name })}
      description={connection.consentExpiresAt ? t("connect.return.consentUntil", { date: format.date(connection.consentExpiresAt) }) : undefined}
    >
      <div className={page.stack}>
        <ul className={styles.list} data-testid="connect-accounts">
          {connection.accounts.filter((a) => !a.detached).map((a) => {
            const value = chosen[a.id];
            const details = t("connect.return.accountDetails", { masked: a.masked || "—", currency: a.currency, institution: a.institution });
            return (
              <li key={a.id} className={styles.row} data-testid="connect-account">
                {a.assetId !== null ? (
                  <span className={styles.rowMain}>
                    <span className={styles.name}>{a.name}</span>
                    <span className={styles.muted}>{details}</span>
                  </span>
                ) : (
                  <Checkbox
                    label={t("connect.return.account", { name: a.name })}
                    description={details}
                    checked={value !== null && value !== undefined}
                    onCheckedChange={(on) => setChosen((c) => ({ ...c, [a.id]: on ? defaultClass : null }))}
                  />
                )}
                {a.assetId !== null ? (
                  <Badge tone="success">{t("connect.return.already")}</Badge>
                ) : (
                  value && (
                    <NativeSelect
                      compact
                      label={t("connect.return.asClass")}
                      value={value}
                      onChange={(e) => setChosen((c) => ({ ...c, [a.id]: e.target.value as AssetClass }))}
                    >
                      {(["bank_accounts", "investments"] as const).map((c) => (
                        <option key={c} value={c}>
                          {t(`connect.return.classes.${c}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )
                )}
              </li>
            );
          })}
        </ul>
        {adopt.isError && <Alert>{errorText(adopt.error)}</Alert>}
        {open.length > 0 ? (
          <div className={styles.actions}>
            <Button
              type="button"
              disabled={picks.length === 0}
              loading={adopt.isPending}
              onClick={() => adopt.mutate({ id: connection.id, body: { accounts: picks } })}
              data-testid="connect-add"
            >
              {t("connect.return.add", { count: picks.length })}
            </Button>
            {picks.length === 0 && <span className={styles.muted}>{t("connect.return.none")}</span>}
          </div>
        ) : (
          <Link to="/assets" className={buttonClass({ variant: "primary" })} data-testid="connect-see-assets">
            {t("connect.return.seeAssets")}
          </Link>
        )}
      </div>
    </Card>
  );
}
