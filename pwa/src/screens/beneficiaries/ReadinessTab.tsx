// Estate readiness: the share of the person's wealth (their look-through share of each asset, in the
// workspace's base currency at each value's date) that has beneficiaries, and what to look at:
// assets nobody receives, assets allocated over or under 100 %, beneficiaries without contact data.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useEstateAssets } from "../../estate/hooks";
import { localToday } from "../../time/localToday";
import { allocationMessage, reviewAllocations, wealthShare } from "../../estate/readiness";
import { useFormatters } from "../../i18n/useFormatters";
import { Dec } from "../../money";
import { useRateBook } from "../../money/useRateBook";
import { Card } from "../../ui/Card";
import { Skeleton } from "../../ui/Skeleton";
import { useBaseCurrency } from "../dashboard/baseCurrency";
import styles from "./beneficiaries.module.css";
import { useEstate } from "./context";
import { useMessage } from "./labels";
import { heldAssets } from "../../assets/disposal";

export function ReadinessTab() {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const message = useMessage();
  const { workspaceId, assets: all, structures, beneficiaries } = useEstate();
  // Readiness looks at what the person holds: a sold or given-away asset needs no beneficiary.
  const assets = useMemo(() => heldAssets(all), [all]);
  const [base] = useBaseCurrency(workspaceId);
  const today = useMemo(() => localToday(), []);
  const estateAssets = useEstateAssets(assets, structures, today);
  const currencies = useMemo(() => [...new Set([base, ...assets.map((a) => a.fields.currency)])].sort(), [base, assets]);
  const rates = useRateBook(workspaceId, currencies);
  const review = useMemo(() => reviewAllocations(assets, beneficiaries.map((b) => ({ ...b.fields, id: b.id }))), [assets, beneficiaries]);
  const share = useMemo(
    () => (estateAssets && rates ? wealthShare(estateAssets, beneficiaries.map((b) => ({ ...b.fields, id: b.id })), base, rates) : undefined),
    [estateAssets, rates, beneficiaries, base],
  );

  return (
    <div className={styles.tab} data-testid="readiness">
      <div className={styles.readinessTop}>
        <Card title={t("beneficiaries.readiness.shareTitle")} headingLevel={3}>
          {!share ? (
            <Skeleton shape="text" />
          ) : (
            <>
              <p className={styles.bigFigure} data-testid="readiness-share">
                {share.sharePercent === null ? t("beneficiaries.readiness.noValue") : fmt.percent(share.sharePercent)}
              </p>
              {share.sharePercent !== null && (
                <p className={styles.muted} data-testid="readiness-share-detail">
                  {t("beneficiaries.readiness.shareDetail", { covered: fmt.money(share.covered, base), total: fmt.money(share.total, base) })}
                </p>
              )}
              {share.missingRates.length > 0 && <p className={styles.muted}>{t("beneficiaries.readiness.missingRates", { count: share.missingRates.length })}</p>}
              {share.unvalued.length > 0 && <p className={styles.muted}>{t("beneficiaries.readiness.unvalued", { count: share.unvalued.length })}</p>}
            </>
          )}
        </Card>
        <Card title={t("beneficiaries.readiness.reviewTitle")} headingLevel={3}>
          <p className={styles.bigFigure} data-testid="readiness-count-figure">
            {review.issueCount}
          </p>
          <p className={styles.muted}>{review.issueCount === 0 ? t("beneficiaries.readiness.allGood") : t("beneficiaries.readiness.toReview", { count: review.issueCount })}</p>
          <p className={styles.muted} data-testid="readiness-estate">
            {t("beneficiaries.readiness.estate", { percent: fmt.percent(review.estate.sum) })}
            {review.estate.state !== "none" && ` ${message(allocationMessage(new Dec(review.estate.sum)) ?? { key: "beneficiaries.fullyAllocated", params: {} })}`}
          </p>
        </Card>
      </div>

      <ReviewList title={t("beneficiaries.readiness.without")} testId="readiness-without" empty={t("beneficiaries.readiness.noneWithout")}>
        {review.withoutBeneficiaries.map((r) => (
          <li key={r.asset.id}>{r.asset.fields.name}</li>
        ))}
      </ReviewList>
      <ReviewList title={t("beneficiaries.readiness.over")} testId="readiness-over" empty={t("beneficiaries.readiness.noneOver")}>
        {review.over.map((r) => (
          <li key={r.asset.id}>
            {r.asset.fields.name} · {fmt.percent(r.sum)} · {message(allocationMessage(new Dec(r.sum))!)}
          </li>
        ))}
      </ReviewList>
      <ReviewList title={t("beneficiaries.readiness.under")} testId="readiness-under" empty={t("beneficiaries.readiness.noneUnder")}>
        {review.under.map((r) => (
          <li key={r.asset.id}>
            {r.asset.fields.name} · {t("beneficiaries.readiness.covered", { percent: fmt.percent(r.coverage) })} · {message(allocationMessage(new Dec(r.coverage))!)}
          </li>
        ))}
      </ReviewList>
      <ReviewList title={t("beneficiaries.readiness.noContact")} testId="readiness-no-contact" empty={t("beneficiaries.readiness.noneNoContact")}>
        {review.withoutContact.map((b) => (
          <li key={b.id}>{b.name}</li>
        ))}
      </ReviewList>
    </div>
  );
}

function ReviewList({ title, testId, empty, children }: { title: string; testId: string; empty: string; children: React.ReactNode[] }) {
  return (
    <Card title={title} headingLevel={3} padding="compact">
      {children.length === 0 ? (
        <p className={styles.muted} data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className={styles.reviewList} data-testid={testId}>
          {children}
        </ul>
      )}
    </Card>
  );
}
