// /connect?kind=bank|brokerage&country=ES: choose what to connect, the country and the institution,
// then go to the institution's consent page. A provider this server does not have says so and
// offers the statement import (/import) or the manual form. Needs the network; viewers get the
// reason they cannot connect.
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  goToInstitution,
  useConnectionProviders,
  useInstitutions,
  useStartConnectionMutation,
  type ConnectionKind,
  type ConnectionStartRequest,
  type Institution,
} from "../../api/connections";
import { useErrorText } from "../../api/useErrorText";
import { useAssetWorkspace } from "../../assets/hooks";
import { useLanguage } from "../../i18n/useLanguage";
import type { ConnectSearch } from "../../router/connectRoutes";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cx } from "../../ui/cx";
import { EmptyState } from "../../ui/EmptyState";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { filterByText } from "../../ui/search";
import { Skeleton } from "../../ui/Skeleton";
import page from "../page.module.css";
import styles from "./Connect.module.css";

/** The countries Enable Banking serves (PSD2: the EEA and the UK), Spain first. */
export const BANK_COUNTRIES = [
  "ES", "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IS", "IE", "IT", "LV", "LI", "LT",
  "LU", "MT", "NL", "NO", "PL", "PT", "RO", "SK", "SI", "SE", "GB",
] as const;

export function ConnectScreen() {
  const { t } = useTranslation();
  const search = useSearch({ strict: false }) as ConnectSearch;
  const navigate = useNavigate();
  const { language } = useLanguage();
  const workspace = useAssetWorkspace();
  const errorText = useErrorText();
  const kind: ConnectionKind = search.kind ?? "bank";
  const country = search.country ?? "ES";
  const providers = useConnectionProviders();
  const info = providers.data?.providers.find((p) => p.kind === kind);
  const configured = info?.configured === true;
  const institutions = useInstitutions(configured ? info.name : undefined, country);
  const [query, setQuery] = useState("");
  const [opening, setOpening] = useState<string | null>(null);
  const start = useStartConnectionMutation({
    onSuccess: (started) => goToInstitution(started.redirectUrl),
    onError: () => setOpening(null),
  });
  const countryNames = useMemo(() => new Intl.DisplayNames([language], { type: "region" }), [language]);
  const shown = useMemo(
    () => filterByText((institutions.data ?? []).map((i) => ({ ...i, label: i.name })), query),
    [institutions.data, query],
  );
  const back = (
    <Link to="/assets" data-testid="connect-back">
      ← {t("connect.back")}
    </Link>
  );

  if (workspace.role === "viewer") {
    return (
      <div className={cx(page.page, page.narrow)}>
        <EmptyState icon={<ShieldX size={24} />} headingLevel={1} title={t("connect.readOnly.title")} text={t("connect.readOnly.text")} data-testid="connect-read-only" />
      </div>
    );
  }

  const connect = (institution: Institution) => {
    if (!info || workspace.workspaceId === undefined) return;
    setOpening(institution.id);
    start.mutate({
      workspaceId: workspace.workspaceId,
      provider: info.name,
      institutionId: institution.id,
      country: country as NonNullable<ConnectionStartRequest["country"]>,
      language,
    });
  };

  let body;
  if (providers.isPending) {
    // Offline the query waits for a network: the notice above says why, no skeleton.
    body = providers.fetchStatus === "paused" ? null : <Skeleton lines={4} />;
  } else if (providers.isError) {
    body = navigator.onLine ? <Alert>{errorText(providers.error)}</Alert> : null;
  } else if (!configured) {
    const provider = info?.title ?? kind;
    body = (
      <Card title={t("connect.notConfigured.title", { provider })} data-testid="connect-not-configured">
        <p>{t("connect.notConfigured.text", { provider })}</p>
        <div className={styles.actions}>
          <a href={providers.data.importPath} className={buttonClass({ variant: "primary" })} data-testid="connect-import">
            {t("connect.notConfigured.import")}
          </a>
          <Link to="/assets/new" className={buttonClass({ variant: "secondary" })}>
            {t("connect.notConfigured.manual")}
          </Link>
        </div>
      </Card>
    );
  } else {
    body = (
      <Card title={t("connect.institutions")}>
        <div className={page.stack}>
          <div className={styles.filters}>
            <Field label={t("connect.country")}>
              <NativeSelect
                value={country}
                onChange={(e) => void navigate({ to: "/connect", search: { kind, country: e.target.value }, replace: true })}
                data-testid="connect-country"
              >
                {BANK_COUNTRIES.map((c) => (
                  <option key={c} value={c}>
                    {countryNames.of(c) ?? c}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label={t("connect.search")}>
              <SearchInput value={query} onChange={setQuery} placeholder={t("connect.searchPlaceholder")} data-testid="connect-search" />
            </Field>
          </div>
          {start.isError && <Alert>{errorText(start.error)}</Alert>}
          {institutions.isPending ? (
            <Skeleton lines={5} />
          ) : institutions.isError ? (
            <Alert>{errorText(institutions.error)}</Alert>
          ) : shown.length === 0 ? (
            <p className={styles.muted}>{t("connect.noInstitutions", { query })}</p>
          ) : (
            <ul className={styles.list} data-testid="connect-institutions">
              {shown.map((i) => (
                <li key={i.id} className={styles.row}>
                  <span className={styles.name}>{i.name}</span>
                  <Button
                    type="button"
                    size="sm"
                    loading={opening === i.id}
                    loadingText={t("connect.redirecting", { name: i.name })}
                    disabled={opening !== null && opening !== i.id}
                    aria-label={t("connect.connectLabel", { name: i.name })}
                    onClick={() => connect(i)}
                  >
                    {t("connect.connectTo")}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Card>
    );
  }

  return (
    <div className={cx(page.page, page.medium)} data-testid="connect-screen">
      <PageHeader title={t("connect.titles.connect")} subtitle={t("connect.intro")} back={back} />
      <div className={page.stack}>
        <nav aria-label={t("connect.kind.label")}>
          <ul className={styles.kinds}>
            {(["bank", "brokerage"] as const).map((k) => (
              <li key={k}>
                <Link
                  to="/connect"
                  search={{ kind: k, country }}
                  replace
                  aria-current={k === kind ? "page" : undefined}
                  className={buttonClass({ variant: k === kind ? "primary" : "secondary", size: "sm" })}
                  data-testid={`connect-kind-${k}`}
                >
                  {t(`connect.kind.${k}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <NeedsConnection>{t("connect.offline")}</NeedsConnection>
        {body}
      </div>
    </div>
  );
}
