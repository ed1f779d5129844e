// The dashboard's charts (recharts, loaded in its own chunk after the figures paint). Decorative for
// assistive technology (aria-hidden): the table next to each chart carries the same figures. The
// chart geometry needs numbers; the values shown in tooltips come from the exact decimal strings.
import { useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DimensionId, HistoryPoint, ReturnFigure, Slice } from "../../figures/types";
import { formatDate } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { axisMoney, axisPercent, money, percent, sliceLink, useSliceLabel } from "./display";
import styles from "./Dashboard.module.css";

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#65a30d", "#db2777", "#4b5563", "#7c3aed"];

export type ChartsProps =
  | { kind: "pie" | "bar"; dimension: DimensionId; slices: readonly Slice[]; base: string }
  | { kind: "line"; series: readonly HistoryPoint[]; base: string }
  | { kind: "returns"; rows: { name: string; figure: ReturnFigure }[] };

export default function Charts(props: ChartsProps) {
  return (
    <div className={styles.chart} aria-hidden="true" data-testid={`chart-${props.kind}`}>
      <ResponsiveContainer width="100%" height="100%">
        {props.kind === "line" ? <HistoryChart {...props} /> : props.kind === "returns" ? <ReturnsChart {...props} /> : <SliceChart {...props} />}
      </ResponsiveContainer>
    </div>
  );
}

function SliceChart({ kind, dimension, slices, base }: { kind: "pie" | "bar"; dimension: DimensionId; slices: readonly Slice[]; base: string }) {
  const { language } = useLanguage();
  const label = useSliceLabel();
  const navigate = useNavigate();
  // A pie shows parts of a whole: only groups worth more than nothing (an overdrawn account has no
  // slice; the bars and the table show it). Amounts are plain decimal strings: "-500", "0".
  const data = slices.filter((s) => s.value !== "0" && (kind === "bar" || !s.value.startsWith("-"))).map((s) => ({ name: label(dimension, s), value: Number(s.value), exact: s.value, slice: s }));
  const open = (entry: unknown) => {
    const slice = (entry as { slice?: Slice; payload?: { slice?: Slice } }).slice ?? (entry as { payload?: { slice?: Slice } }).payload?.slice;
    const to = slice && sliceLink(dimension, slice);
    if (to) void navigate(to);
  };
  const tooltip = <Tooltip formatter={(_v, _n, item) => money((item.payload as { exact: string }).exact, base, language)} />;
  if (kind === "pie")
    return (
      <PieChart accessibilityLayer={false}>
        <Pie data={data} dataKey="value" nameKey="name" innerRadius="50%" outerRadius="85%" isAnimationActive={false} onClick={open} cursor="pointer" rootTabIndex={-1}>
          {data.map((d, i) => (
            <Cell key={d.slice.key} fill={COLORS[i % COLORS.length]} />
          ))}
        </Pie>
        {tooltip}
      </PieChart>
    );
  return (
    <BarChart data={data} layout="vertical" margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
      <CartesianGrid strokeDasharray="3 3" horizontal={false} />
      <XAxis type="number" hide />
      <YAxis type="category" dataKey="name" width={120} tick={{ fontSize: 12, fill: "currentColor" }} />
      <Bar dataKey="value" isAnimationActive={false} onClick={open} cursor="pointer">
        {data.map((d, i) => (
          <Cell key={d.slice.key} fill={COLORS[i % COLORS.length]} />
        ))}
      </Bar>
      {tooltip}
    </BarChart>
  );
}

/** A point of the net worth line that leaves amounts out (no exchange rate): a warning-coloured dot,
 * so a dip is not read as a loss (the table says how many; the tooltip too). Others: no dot. */
function IncompleteDot(props: { cx?: number; cy?: number; index?: number; payload?: { missing: number } }) {
  const { cx, cy, index, payload } = props;
  if (!payload || payload.missing === 0 || cx === undefined || cy === undefined) return <g key={`dot-${index}`} />;
  return <circle key={`dot-${index}`} cx={cx} cy={cy} r={5} fill="#fff" stroke={COLORS[2]} strokeWidth={3} data-missing={payload.missing} />;
}

function HistoryChart({ series, base }: { series: readonly HistoryPoint[]; base: string }) {
  const { language } = useLanguage();
  const { t } = useTranslation();
  const data = series.map((p) => ({ date: formatDate(p.date, language, { month: "short", year: "2-digit" }), value: Number(p.total), exact: p.total, missing: p.missing }));
  return (
    <LineChart data={data} margin={{ left: 8, right: 16, top: 8 }} accessibilityLayer={false}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="date" tick={{ fontSize: 12, fill: "currentColor" }} />
      <YAxis width={80} tick={{ fontSize: 12, fill: "currentColor" }} tickFormatter={(v: number) => axisMoney(v, base, language)} />
      <Line type="monotone" dataKey="value" stroke={COLORS[0]} strokeWidth={2} dot={IncompleteDot} activeDot={{ r: 4 }} isAnimationActive={false} />
      <Tooltip
        formatter={(_v, _n, item) => {
          const { exact, missing } = item.payload as { exact: string; missing: number };
          return money(exact, base, language) + (missing > 0 ? ` ${t("dashboard.table.missing", { count: missing })}` : "");
        }}
      />
    </LineChart>
  );
}

function ReturnsChart({ rows }: { rows: { name: string; figure: ReturnFigure }[] }) {
  const { language } = useLanguage();
  const { t } = useTranslation();
  // Fractions (0.025 = 2.5 %), written as percentages the reader's way on the axis.
  const data = rows.filter((r) => r.figure.ok).map((r) => ({ name: r.name, value: r.figure.ok ? Number(r.figure.value) : 0, exact: r.figure.ok ? r.figure.value : "0" }));
  if (data.length === 0) return <p>{t("money.notAvailable")}</p>;
  return (
    <BarChart data={data} margin={{ left: 8, right: 16 }} accessibilityLayer={false}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="name" tick={{ fontSize: 12, fill: "currentColor" }} />
      <YAxis width={64} tick={{ fontSize: 12, fill: "currentColor" }} tickFormatter={(v: number) => axisPercent(v, language)} />
      <Bar dataKey="value" isAnimationActive={false}>
        {data.map((d) => (
          <Cell key={d.name} fill={d.value < 0 ? COLORS[4] : COLORS[1]} />
        ))}
      </Bar>
      <Tooltip formatter={(_v, _n, item) => percent((item.payload as { exact: string }).exact, language, true)} />
    </BarChart>
  );
}
