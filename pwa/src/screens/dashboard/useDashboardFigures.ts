// The dashboard's and the map's figures, live: the workspace's records from the device database
// (works offline) turned into plain inputs (pwa/src/figures) and computed in a module Web Worker, so
// a large workspace never blocks the page. Today's figures ("now": net worth, distribution) need no
// valuation history and come first; the history (series, changes, returns) follows.
import { useServerRates, useWorkspaceRecords } from "@patrimonio/clientdb";
import { useEffect, useMemo, useRef, useState } from "react";
import { useAssets, useAssetWorkspace, useLegalStructures, type AssetRec, type StructureRec } from "../../assets/hooks";
import { useAssetLabels } from "../../assets/useAssetLabels";
import type { FigAsset, FigCashFlow, FiguresInput, HistoryFigures, NowFigures } from "../../figures/types";
import { termsOf, outstandingOf } from "../../liabilities/listModel";
import { useToday } from "../../liabilities/useToday";
import { currencyDecimals } from "../../ui/currency";
import { addDays } from "../../money/dates";
import type { WorkerRequest, WorkerResponse } from "../../figures/jobs";
import { useRatesRefresh } from "../../money/useRateBook";
import { useBaseCurrency } from "./baseCurrency";
import { readSnapshot, writeSnapshot } from "./snapshot";
import { ASSET_CLASS_IDS } from "../../assets/classes";

export interface DashboardFigures {
  workspaceId: string | undefined;
  base: string;
  setBase: (code: string) => void;
  /** A base currency chosen offline, not yet on the server. */
  basePending: boolean;
  /** Whether the reader may change the base currency (owners and editors), else the reason's key. */
  canEdit: boolean;
  readOnlyReasonKey: string | null;
  today: string;
  /** undefined while loading; [] when the workspace has none. */
  assets: AssetRec[] | undefined;
  structures: StructureRec[] | undefined;
  now: NowFigures | undefined;
  /** `now` is the device's last figures (snapshot.ts), shown while the fresh ones compute. */
  stale: boolean;
  /** When the stale figures were computed (ms since the epoch). */
  staleSince: number | undefined;
  history: HistoryFigures | undefined;
  error: string | undefined;
}

type Runner = { post(req: WorkerRequest): void; stop(): void };

/** Runs jobs in a module worker, started at once (it loads its code while the device database
 * opens); in the page when workers are not available (tests, very old browsers). */
function startRunner(onAnswer: (res: WorkerResponse) => void, enabled = true): Runner {
  let worker: Worker | null = null;
  let stopped = false;
  if (enabled && typeof Worker !== "undefined") {
    try {
      worker = new Worker(new URL("../../figures/figures.worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (e: MessageEvent<WorkerResponse>) => onAnswer(e.data);
    } catch {
      worker = null;
    }
  }
  return {
    post: (req) => {
      if (worker) return worker.postMessage(req);
      void import("../../figures/jobs").then(({ runJob }) => {
        if (!stopped) onAnswer(runJob(req));
      });
    },
    stop: () => {
      stopped = true;
      worker?.terminate();
    },
  };
}

export function useDashboardFigures({ history: withHistory = true }: { history?: boolean } = {}): DashboardFigures {
  const { workspaceId, canEdit, readOnlyReasonKey } = useAssetWorkspace();
  const [base, setBase, basePending] = useBaseCurrency(workspaceId);
  const assets = useAssets();
  const structures = useLegalStructures();
  const liabilities = useWorkspaceRecords("liabilities", workspaceId);
  // The valuation history (the largest collection) is read once today's figures are shown, so its
  // reading does not delay them.
  const [nowShown, setNowShown] = useState(false);
  const valuations = useWorkspaceRecords("valuations", withHistory && nowShown ? workspaceId : undefined);
  const manual = useWorkspaceRecords("fxRates", workspaceId);
  // Cash flows tied to an asset are the contributions and withdrawals of its returns (history only).
  const cashFlows = useWorkspaceRecords("cashFlows", withHistory && nowShown ? workspaceId : undefined);
  const labels = useAssetLabels();
  const today = useToday();

  const currencies = useMemo(() => {
    const set = new Set<string>([base]);
    for (const a of assets ?? []) set.add(a.fields.currency);
    for (const l of liabilities ?? []) set.add(l.fields.currency);
    for (const v of valuations ?? []) set.add(v.fields.currency);
    for (const f of cashFlows ?? []) if (f.fields.assetId) set.add(f.fields.currency);
    return [...set].sort();
  }, [base, assets, liabilities, valuations, cashFlows]);
  // The earliest date a value is converted on: the device asks the server only for these
  // currencies from the last rate on or before it (the series and the 1Y change go 13 months back).
  const from = useMemo(() => {
    if (!assets) return undefined;
    let first = addDays(today, -400);
    const older = (d: string | undefined) => {
      if (d && d < first) first = d;
    };
    for (const a of assets) {
      older(a.fields.valuationDate);
      older(a.fields.purchaseDate);
    }
    for (const v of valuations ?? []) older(v.fields.date);
    for (const f of cashFlows ?? []) if (f.fields.assetId) older(f.fields.startDate);
    return first;
  }, [assets, valuations, cashFlows, today]);
  useRatesRefresh(useMemo(() => (from === undefined ? undefined : { currencies, from }), [currencies, from]));
  const serverRates = useServerRates(currencies);

  const { categoryIdOf } = labels;
  const figAssets = useMemo(
    () =>
      assets?.map((r): FigAsset => {
        const f = r.fields;
        return {
          id: r.id,
          name: f.name,
          assetClass: f.assetClass,
          classId: ASSET_CLASS_IDS[f.assetClass],
          category: f.category,
          categoryId: categoryIdOf(f.category, f.assetClass),
          currency: f.currency,
          participation: f.participation,
          legalStructureId: f.legalStructureId,
          currentValue: f.currentValue,
          valuationDate: f.valuationDate,
          purchaseValue: f.purchaseValue,
          purchaseDate: f.purchaseDate,
          taxCountry: f.taxLocation?.country,
          noTaxRegistration: f.taxLocation?.noTaxRegistration,
          risk: f.risk,
          liquidity: f.liquidity,
          institution: f.institution,
          disposal: f.disposal && { kind: f.disposal.kind, date: f.disposal.date, amount: f.disposal.amount },
        };
      }),
    [assets, categoryIdOf],
  );

  const nowInput = useMemo((): FiguresInput | undefined => {
    if (!figAssets || !structures || !liabilities || !manual || !serverRates) return undefined;
    return {
      base,
      today,
      assets: figAssets,
      structures: structures.map((s) => ({ id: s.id, name: s.fields.name, parentStructureId: s.fields.parentStructureId, ownershipPercentage: s.fields.ownershipPercentage })),
      valuations: [],
      liabilities: liabilities.map((l) => ({
        id: l.id,
        name: l.fields.name,
        // What is owed today: the amount typed less the payments due since (liabilities/listModel).
        amountOutstanding: outstandingOf(l, today),
        // What it owed on each past date of the chart (its schedule rolled from the amount's day).
        terms: { debt: termsOf(l), decimals: currencyDecimals(l.fields.currency) },
        currency: l.fields.currency,
        assetId: l.fields.assetId,
        startDate: l.fields.startDate,
      })),
      rates: serverRates,
      manualRates: manual.map((m) => ({ date: m.fields.date, currency: m.fields.currency, perEur: m.fields.perEur, source: "manual" })),
    };
  }, [base, today, figAssets, structures, liabilities, manual, serverRates]);

  const historyInput = useMemo((): FiguresInput | undefined => {
    if (!withHistory || !nowInput || !valuations || !cashFlows) return undefined;
    const flows: FigCashFlow[] = [];
    for (const c of cashFlows) {
      const f = c.fields;
      if (!f.assetId) continue;
      flows.push({ assetId: f.assetId, direction: f.direction, amount: f.amount, currency: f.currency, frequency: f.frequency, startDate: f.startDate, endDate: f.endDate });
    }
    return {
      ...nowInput,
      valuations: valuations.map((v) => ({ assetId: v.fields.assetId, date: v.fields.date, value: v.fields.value, currency: v.fields.currency })),
      cashFlows: flows,
    };
  }, [withHistory, nowInput, valuations, cashFlows]);

  // Each answer is kept with the workspace its job was asked for: after a switch, the workspace
  // left's figures are never shown (nor remembered) as the new one's while its own compute.
  const [now, setNow] = useState<{ workspaceId: string; figures: NowFigures } | undefined>(undefined);
  const [history, setHistory] = useState<{ workspaceId: string; base: string; figures: HistoryFigures } | undefined>(undefined);
  // The last failure of each kind of job (cleared by its next success).
  const [errors, setErrors] = useState<{ workspaceId: string; now?: string; history?: string } | undefined>(undefined);
  // Two workers: today's figures never wait behind a long history job.
  const runners = useRef<{ now: Runner; history: Runner } | null>(null);
  const historyWanted = useRef(withHistory);
  const latest = useRef<Record<WorkerRequest["kind"], { id: number; workspaceId: string }>>({ now: { id: 0, workspaceId: "" }, history: { id: 0, workspaceId: "" } });
  const seq = useRef(0);

  useEffect(() => {
    const onAnswer = (res: WorkerResponse) => {
      const asked = latest.current[res.kind];
      if (res.id !== asked.id) return; // a newer job was asked
      const ws = asked.workspaceId;
      const failure = res.ok ? undefined : res.error;
      setErrors((e) => (e?.workspaceId === ws && e[res.kind] === failure ? e : { ...(e?.workspaceId === ws ? e : { workspaceId: ws }), [res.kind]: failure }));
      if (!res.ok) return;
      if (res.kind === "now") {
        setNow({ workspaceId: ws, figures: res.figures });
        setNowShown(true);
      } else setHistory({ workspaceId: ws, base: res.base, figures: res.figures });
    };
    const r = { now: startRunner(onAnswer), history: startRunner(onAnswer, historyWanted.current) };
    runners.current = r;
    return () => {
      r.now.stop();
      r.history.stop();
      runners.current = null;
    };
  }, []);

  useEffect(() => {
    if (!nowInput || !workspaceId || !runners.current) return;
    const id = ++seq.current;
    latest.current.now = { id, workspaceId };
    runners.current.now.post({ id, kind: "now", input: nowInput });
  }, [nowInput, workspaceId]);

  useEffect(() => {
    if (!historyInput || !workspaceId || !runners.current) return;
    const id = ++seq.current;
    latest.current.history = { id, workspaceId };
    runners.current.history.post({ id, kind: "history", input: historyInput });
  }, [historyInput, workspaceId]);

  // Marks for the benchmark (bench/dashboard): when the records and the figures arrived.
  useEffect(() => {
    if (nowInput) performance.mark?.("dashboard:input");
  }, [nowInput]);
  useEffect(() => {
    if (now) performance.mark?.("dashboard:now");
  }, [now]);

  // Only the answers for this workspace and base currency.
  const nowHere = now && now.workspaceId === workspaceId && now.figures.netWorth.base === base ? now.figures : undefined;
  const historyHere = history && history.workspaceId === workspaceId && history.base === base ? history.figures : undefined;
  const errorsHere = errors?.workspaceId === workspaceId ? errors : undefined;

  // The last figures of this workspace, shown at once while the fresh ones compute; the fresh ones
  // are kept for the next visit.
  const snapshot = useMemo(() => readSnapshot(workspaceId), [workspaceId]);
  useEffect(() => {
    if (nowHere && workspaceId) writeSnapshot(workspaceId, { base, today, savedAt: Date.now(), now: nowHere });
  }, [nowHere, workspaceId, base, today]);

  // A figure for another base currency or workspace is not shown while the new one computes.
  const freshNow = nowHere;
  const staleNow = !freshNow && snapshot && snapshot.base === base && snapshot.today === today ? snapshot.now : undefined;
  const shownNow = freshNow ?? staleNow;
  return {
    workspaceId,
    base,
    setBase,
    basePending,
    canEdit,
    readOnlyReasonKey,
    today,
    assets,
    structures,
    now: shownNow,
    stale: staleNow !== undefined,
    staleSince: staleNow ? snapshot?.savedAt : undefined,
    history: freshNow ? historyHere : undefined,
    error: errorsHere?.now ?? errorsHere?.history,
  };
}
