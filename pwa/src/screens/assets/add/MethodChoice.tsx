// Step 2 of adding an asset: connect a bank or investment account (the connect flow, /connect:
// investments go to a broker, everything else to a bank), add it manually (the form of the
// category's kind) or, for bank accounts and investments, import a statement file (/import).
import { Link } from "@tanstack/react-router";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import styles from "./AddAsset.module.css";
import type { AddAssetSearch, AssetTargetChoice } from "./flow";

export function MethodChoice({
  target,
  categoryLabel,
  search,
}: {
  target: AssetTargetChoice;
  categoryLabel: string;
  search: AddAssetSearch;
}) {
  const { t } = useTranslation();
  const id = useId();
  const keep = search.structureId ? { structureId: search.structureId } : {};
  const kind = target.assetClass === "investments" ? "brokerage" : "bank";
  return (
    <Card title={t("assetAdd.method.title")} data-testid="method-choice">
      <p className={styles.chosen}>
        <span data-testid="chosen-category">{t("assetAdd.method.category", { category: categoryLabel })}</span>
        <Link to="/assets/new" search={keep} data-testid="change-category">
          {t("assetAdd.method.change")}
        </Link>
      </p>
      <ul className={styles.methods}>
        <li className={styles.method}>
          <Link
            to="/connect"
            search={{ kind }}
            className={buttonClass({ variant: "secondary" })}
            aria-describedby={`${id}-connect`}
            data-testid="method-connect"
          >
            {t("assetAdd.method.connect")}
          </Link>
          <p id={`${id}-connect`} className={styles.methodText}>
            {t("assetAdd.method.connectText")}
          </p>
        </li>
        <li className={styles.method}>
          <Link
            to="/assets/new"
            search={{ ...keep, categoryId: target.categoryId, mode: "manual", ...(search.kind ? { kind: search.kind } : {}) }}
            className={buttonClass({ variant: "primary" })}
            aria-describedby={`${id}-manual`}
            data-testid="method-manual"
          >
            {t("assetAdd.method.manual")}
          </Link>
          <p id={`${id}-manual`} className={styles.methodText}>
            {t("assetAdd.method.manualText")}
          </p>
        </li>
        {(target.assetClass === "bank_accounts" || target.assetClass === "investments") && (
          <li className={styles.method}>
            <Link to="/import" className={buttonClass({ variant: "secondary" })} aria-describedby={`${id}-statement`} data-testid="method-statement">
              {t("assetAdd.method.statement")}
            </Link>
            <p id={`${id}-statement`} className={styles.methodText}>
              {t("assetAdd.method.statementText")}
            </p>
          </li>
        )}
      </ul>
    </Card>
  );
}
