// The positions of a linked brokerage account, on its asset's "linked account" card: each position
// (name and symbol, units, price, value, sold ones marked) links to its own investment asset. The
// positions are assets of their own, synced like any record, so the account's asset carries only
// its cash and the wealth totals count nothing twice; this table is the broker's view of them.
import Decimal from "decimal.js";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectionPosition } from "../../api/connections";
import { useFormatters } from "../../i18n/useFormatters";
import { Badge } from "../../ui/Badge";
import { DataTable, type DataTableColumn } from "../../ui/DataTable";
import styles from "./Connect.module.css";

/** The held positions' value per currency, exact ("EUR" → "46220"). */
export function positionTotals(positions: readonly ConnectionPosition[]): { currency: string; amount: string }[] {
  const sums = new Map<string, Decimal>();
  for (const p of positions) {
    if (p.status !== "open") continue;
    sums.set(p.currency, (sums.get(p.currency) ?? new Decimal(0)).plus(p.value));
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => ({ currency, amount: sum.toFixed() }));
}

export function ConnectionPositions({
  positions,
  name,
}: {
  positions: readonly ConnectionPosition[];
  /** Renders a position's name (a link to its asset on the asset screens). */
  name: (position: ConnectionPosition) => ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (positions.length === 0) return null;
  const totals = positionTotals(positions);
  const date = positions.find((p) => p.status === "open")?.date ?? positions[0]!.date;
  const columns: DataTableColumn<ConnectionPosition>[] = [
    {
      id: "name",
      header: t("connect.positions.name"),
      cell: (p) => (
        <span className={styles.rowMain}>
          <span className={styles.name}>{name(p)}</span>
          <span className={styles.muted}>
            {p.symbol}
            {p.status === "closed" && (
              <>
                {" "}
                <Badge tone="outline">{t("connect.positions.sold")}</Badge>
              </>
            )}
          </span>
        </span>
      ),
      sortValue: (p) => p.name,
      width: "minmax(150px, 2fr)",
    },
    {
      id: "units",
      header: t("connect.positions.units"),
      cell: (p) => format.number(p.units, { maximumFractionDigits: 18 }),
      sortValue: (p) => p.units,
      sortType: "decimal",
      align: "end",
      width: "minmax(96px, 1fr)",
    },
    {
      id: "price",
      header: t("connect.positions.price"),
      cell: (p) => (p.status === "closed" ? "—" : format.number(p.price, { style: "currency", currency: p.currency, maximumFractionDigits: 6 })),
      sortValue: (p) => p.price,
      sortType: "decimal",
      align: "end",
      width: "minmax(96px, 1fr)",
    },
    {
      id: "value",
      header: t("connect.positions.value"),
      cell: (p) => format.money(p.value, p.currency),
      sortValue: (p) => p.value,
      sortType: "decimal",
      align: "end",
      width: "minmax(96px, 1fr)",
    },
  ];
  return (
    <div className={styles.rowMain} data-testid="asset-connection-positions">
      <p>
        {t("connect.positions.total", {
          amount: totals.map((x) => format.money(x.amount, x.currency)).join(" + ") || format.money("0", positions[0]!.currency),
          date: format.date(date),
        })}
      </p>
      <p className={styles.muted}>{t("connect.positions.intro")}</p>
      <DataTable
        label={t("connect.positions.title")}
        rows={positions}
        columns={columns}
        rowKey={(p) => `${p.symbol}:${p.assetId ?? ""}`}
        height={360}
      />
    </div>
  );
}
