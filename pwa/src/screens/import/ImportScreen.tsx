// /import?assetId=<id>: import a bank statement file on the device, offline. Choose the file → its
// format is detected (or chosen) → for CSV the column mapping (the institution's saved one filled
// in) → the preview (account, period, balances, movements with those already imported marked,
// errors with their line) → choose the asset (or create a bank account) and the recurring movements
// to keep as cash flows → import (clientdb's importStatement: one transaction, one sync batch) → the
// summary. Files are parsed in a Web Worker with a progress bar. Viewers cannot import (and are told why).
import {
  IMPORT_ASSET_CLASSES,
  flowExists,
  importStatement,
  importedMovementIds,
  planBalances,
  useClientDb,
  useWorkspaceRecords,
  type ImportStatementResult,
} from "@patrimonio/clientdb";
import type { Issue } from "@patrimonio/shared-schema";
import { Link, useSearch } from "@tanstack/react-router";
import { FileUp } from "lucide-react";
import { useMemo, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { isDisposed } from "../../assets/disposal";
import { useAssets, useAssetWorkspace } from "../../assets/hooks";
import formStyles from "../../forms/form.module.css";
import { translateKey } from "../../forms/schemaForm";
import { joinStatements, type StatementGroup } from "../../import/combine";
import type { CsvOptions } from "../../import/csv";
import { dailyBalances, period as periodOf, recurringMovements } from "../../import/derive";
import { decodeStatement, detectFormat } from "../../import/detect";
import { STATEMENT_FORMATS, type ParseError, type Statement, type StatementFormat } from "../../import/types";
import { useFormatters } from "../../i18n/useFormatters";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { PageHeader } from "../../ui/PageHeader";
import { RadioGroup } from "../../ui/RadioGroup";
import { Stepper } from "../../ui/Stepper";
import { TextInput } from "../../ui/TextInput";
import { ReadOnlyNotice } from "../assets/common/ReadOnlyNotice";
import page from "../page.module.css";
import { CsvMappingStep } from "./CsvMappingStep";
import { statementErrorText } from "./errorText";
import styles from "./import.module.css";
import { PreviewStep } from "./PreviewStep";
import { choiceLabel, chosenTarget, importTargets, leftOut } from "./statementChoices";
import { useStatementParser } from "./useStatementParser";
import { useStepFocus } from "./useStepFocus";

/** Larger files are refused before reading (a year of a busy account in Norma 43 is under 5 MB). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

const FORMAT_NAMES: Record<StatementFormat, string> = { norma43: "Norma 43", camt053: "CAMT.053", ofx: "OFX", csv: "CSV" };

interface LoadedFile {
  name: string;
  bytes: ArrayBuffer;
  format: StatementFormat;
}

type Step = "file" | "mapping" | "preview" | "done";

export function ImportScreen() {
  const { t, i18n } = useTranslation();
  const fmt = useFormatters();
  const search = useSearch({ strict: false }) as { assetId?: string };
  const workspace = useAssetWorkspace();
  const db = useClientDb();
  const assets = useAssets();
  const valuations = useWorkspaceRecords("valuations", workspace.workspaceId);
  const cashFlows = useWorkspaceRecords("cashFlows", workspace.workspaceId);
  const parser = useStatementParser();

  const [step, setStep] = useState<Step>("file");
  const [choice, setChoice] = useState<"auto" | StatementFormat>("auto");
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [csvText, setCsvText] = useState("");
  const [error, setError] = useState<ParseError | null>(null);
  // Blocks of one account whose balances follow on are joined into one statement (a daily Norma 43 file).
  const [statements, setStatements] = useState<StatementGroup[]>([]);
  const [which, setWhich] = useState(0);
  const [target, setTarget] = useState<"existing" | "new">("existing");
  const [assetId, setAssetId] = useState(search.assetId ?? "");
  const [newName, setNewName] = useState("");
  const [chosenFlows, setChosenFlows] = useState<Set<number>>(new Set());
  const [issues, setIssues] = useState<Issue[]>([]);
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<(ImportStatementResult & { leftOut: number }) | null>(null);

  // Each step's card takes the focus when the step changes (the button that led there is gone).
  const root = useStepFocus(step);

  const statement: Statement | undefined = statements[which]?.statement;
  const eligible = useMemo(() => importTargets(assets ?? [], statement?.currency), [assets, statement]);
  const preset = search.assetId ? assets?.find((a) => a.id === search.assetId) : undefined;
  // With no asset that fits, the only way is a new bank account.
  const where = eligible.length === 0 ? "new" : target;
  // Only an offered asset is chosen (the address may name one of another class, or a sold one).
  const chosenId = where === "existing" ? chosenTarget(eligible, assetId) : "";
  const derived = useMemo(() => {
    if (!statement) return undefined;
    const mine = (valuations ?? []).filter((v) => v.fields.assetId === chosenId);
    const recurring = recurringMovements(statement.movements);
    return {
      period: periodOf(statement),
      balances: dailyBalances(statement),
      known: importedMovementIds(mine),
      plans: planBalances(dailyBalances(statement), mine),
      recurring,
      existingFlows: new Set(recurring.flatMap((r, i) => (chosenId !== "" && flowExists(r, cashFlows ?? [], chosenId) ? [i] : []))),
    };
  }, [statement, valuations, cashFlows, chosenId]);

  const restart = () => {
    parser.cancel();
    setStep("file");
    setFile(null);
    setError(null);
    setStatements([]);
    setWhich(0);
    setResult(null);
    setIssues([]);
    setChosenFlows(new Set());
  };

  const parse = async (loaded: LoadedFile, csv?: CsvOptions) => {
    setError(null);
    const r = await parser.parse(loaded.bytes, loaded.format, csv);
    // Cancelled, or another file chosen meanwhile: this answer is no longer wanted.
    if (r === null) return;
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setStatements(joinStatements(r.statements));
    setWhich(0);
    const first = r.statements[0];
    if (first) setNewName(`${first.institution ?? t("statementImport.asset.defaultName")} ${first.account.replace(/\s+/g, "").slice(-4)}`.trim());
    setStep("preview");
  };

  const load = async (loaded: LoadedFile) => {
    parser.cancel();
    setFile(loaded);
    setStatements([]);
    if (loaded.format === "csv") {
      setCsvText(decodeStatement(new Uint8Array(loaded.bytes), "csv"));
      setError(null);
      setStep("mapping");
      return;
    }
    setStep("file");
    await parse(loaded);
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    // Emptied, so that choosing the same file again (once fixed) reads it again.
    e.target.value = "";
    setError(null);
    if (!f) return;
    // Another file: the one still being read (perhaps a large one) is no longer wanted.
    parser.cancel();
    if (f.size > MAX_FILE_BYTES) {
      setError({ line: 0, key: "statementImport.errors.tooLarge", params: { line: 0, max: 50 } });
      return;
    }
    const bytes = await f.arrayBuffer();
    const format = choice === "auto" ? detectFormat(new Uint8Array(bytes), f.name) : choice;
    if (!format) {
      setFile(null);
      setError({ line: 0, key: "statementImport.errors.unknownFormat", params: { line: 0 } });
      return;
    }
    await load({ name: f.name, bytes, format });
  };

  const onChoice = (value: string) => {
    const next = value as "auto" | StatementFormat;
    setChoice(next);
    if (file) {
      const format = next === "auto" ? detectFormat(new Uint8Array(file.bytes), file.name) : next;
      if (format) void load({ ...file, format });
    }
  };

  const doImport = async () => {
    if (!db || !statement || !derived || !workspace.workspaceId) return;
    setIssues([]);
    setImporting(true);
    try {
      const flows = derived.recurring.filter((_, i) => chosenFlows.has(i) && !derived.existingFlows.has(i)).map((r) => ({ name: r.name, direction: r.direction, amount: r.amount, startDate: r.startDate }));
      const common = {
        currency: statement.currency,
        balances: derived.balances,
        flows,
        label: [FORMAT_NAMES[statement.format], statement.institution, statement.accountMasked].filter(Boolean).join(" · "),
      };
      const r =
        where === "new"
          ? await importStatement(db, workspace.workspaceId, {
              ...common,
              newAsset: {
                name: newName.trim(),
                assetClass: "bank_accounts",
                category: "current_account",
                currency: statement.currency,
                participation: "100",
                ...(statement.institution ? { institution: statement.institution.slice(0, 140) } : {}),
              },
            })
          : await importStatement(db, workspace.workspaceId, { ...common, assetId: chosenId });
      if (!r.ok) {
        setIssues(r.issues);
        return;
      }
      const { ok: _ok, ...done } = r;
      setResult({ ...done, leftOut: leftOut(statements, which) });
      setStep("done");
    } finally {
      setImporting(false);
    }
  };

  const errorText = (e: ParseError) => statementErrorText(i18n, e);

  const stepIndex = { file: 0, mapping: 1, preview: 2, done: 3 }[step];
  const isCsv = file?.format === "csv";
  const steps = [t("statementImport.steps.file"), t("statementImport.steps.mapping"), t("statementImport.steps.preview"), t("statementImport.steps.done")];

  return (
    <div ref={root} className={`${page.page} ${page.medium}`} data-testid="import-screen">
      <PageHeader title={t("statementImport.title")} subtitle={t("statementImport.subtitle")} />
      <ReadOnlyNotice />
      {!workspace.canEdit ? (
        workspace.role !== undefined && (
          <Alert tone="info" title={t("statementImport.viewer.title")}>
            <span data-testid="import-viewer">{t("statementImport.viewer.text")}</span>
          </Alert>
        )
      ) : (
        <div className={page.stack}>
          <Stepper steps={steps} current={stepIndex} skipped={isCsv ? [] : [1]} label={t("statementImport.steps.label")} />
          {preset && !IMPORT_ASSET_CLASSES.includes(preset.fields.assetClass) ? (
            <Alert tone="warning">{t("statementImport.asset.presetNotEligible", { name: preset.fields.name })}</Alert>
          ) : (
            preset &&
            isDisposed(preset.fields) && (
              <Alert tone="warning">
                <span data-testid="import-preset-disposed">{t("statementImport.asset.presetDisposed", { name: preset.fields.name })}</span>
              </Alert>
            )
          )}

          {(step === "file" || step === "mapping") && (
            <Card title={t("statementImport.file.title")} description={t("statementImport.file.description")} {...(step === "file" ? { "data-step-focus": "", tabIndex: -1 } : {})}>
              <div className={styles.grid}>
                <Field label={t("statementImport.file.choose")} hint={file ? t("statementImport.file.chosen", { name: file.name, format: FORMAT_NAMES[file.format] }) : t("statementImport.file.hint")}>
                  {(control) => (
                    <input
                      {...control}
                      type="file"
                      className={styles.fileInput}
                      accept=".n43,.aeb,.q43,.c43,.txt,.xml,.ofx,.qfx,.csv"
                      onChange={(e) => void onFile(e)}
                      data-testid="import-file"
                    />
                  )}
                </Field>
                <Field label={t("statementImport.file.format")}>
                  <NativeSelect value={choice} onChange={(e) => onChoice(e.target.value)} data-testid="import-format">
                    <option value="auto">{t("statementImport.file.detect")}</option>
                    {STATEMENT_FORMATS.map((f) => (
                      <option key={f} value={f}>
                        {FORMAT_NAMES[f]}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
              </div>
            </Card>
          )}

          {parser.progress !== undefined && (
            <div className={styles.progress}>
              <div className={styles.progress} role="status" data-testid="import-progress">
                <span>{t("statementImport.reading", { percent: Math.round(parser.progress * 100) })}</span>
                <progress value={parser.progress} max={1} aria-label={t("statementImport.readingLabel")} />
              </div>
              {/* Outside the status region, so its label is not read out with every percent. */}
              <div>
                <Button variant="ghost" size="sm" onClick={parser.cancel} data-testid="import-cancel-reading">
                  {t("statementImport.stopReading")}
                </Button>
              </div>
            </div>
          )}

          {error && (
            <Alert tone="error" title={t("statementImport.errors.title")}>
              <span data-testid="import-error">{errorText(error)}</span>
              <br />
              {t("statementImport.errors.nothingImported")}
            </Alert>
          )}

          {step === "mapping" && file && <CsvMappingStep text={csvText} busy={parser.progress !== undefined} onBack={restart} onRead={(csv) => void parse(file, csv)} />}

          {step === "preview" && statement && derived && (
            <>
              {statements.length > 1 && (
                <Field label={t("statementImport.preview.which")}>
                  <NativeSelect value={String(which)} onChange={(e) => setWhich(Number(e.target.value))}>
                    {statements.map((g, i) => (
                      <option key={i} value={String(i)}>
                        {choiceLabel(g, t, (d) => fmt.date(d))}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
              )}
              {(statements[which]?.parts ?? 1) > 1 && (
                <Alert tone="info">
                  <span data-testid="import-joined">{t("statementImport.preview.joined", { count: statements[which]?.parts ?? 1 })}</span>
                </Alert>
              )}
              {statements.length > 1 && (
                <p className={styles.muted} data-testid="import-left-out-hint">
                  {t("statementImport.preview.leftOut", { count: leftOut(statements, which) })}
                </p>
              )}
              <PreviewStep
                statement={statement}
                period={derived.period}
                known={derived.known}
                plans={derived.plans}
                recurring={derived.recurring}
                chosenFlows={chosenFlows}
                existingFlows={derived.existingFlows}
                onToggleFlow={(i, on) =>
                  setChosenFlows((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(i);
                    else next.delete(i);
                    return next;
                  })
                }
              />
              <Card title={t("statementImport.asset.title")} description={t("statementImport.asset.description", { currency: statement.currency })} data-testid="import-target">
                <div className={formStyles.form}>
                  <Field label={t("statementImport.asset.where")} group>
                    <RadioGroup
                      value={where}
                      onChange={(v) => setTarget(v as "existing" | "new")}
                      options={[
                        { value: "existing", label: t("statementImport.asset.existing"), disabled: eligible.length === 0 },
                        { value: "new", label: t("statementImport.asset.new") },
                      ]}
                    />
                  </Field>
                  {eligible.length === 0 && <p className={styles.muted}>{t("statementImport.asset.noneEligible", { currency: statement.currency })}</p>}
                  {where === "existing" ? (
                    <Field label={t("statementImport.asset.choose")} required>
                      <NativeSelect value={chosenId} onChange={(e) => setAssetId(e.target.value)} data-testid="import-asset">
                        <option value="">{t("statementImport.asset.placeholder")}</option>
                        {eligible.map((a) => (
                          <option key={a.id} value={a.id}>
                            {a.fields.name}
                            {a.fields.currentValue !== undefined ? ` · ${fmt.money(a.fields.currentValue, a.fields.currency)}` : ""}
                          </option>
                        ))}
                      </NativeSelect>
                    </Field>
                  ) : (
                    <Field label={t("statementImport.asset.newName")} required>
                      <TextInput value={newName} onChange={(e) => setNewName(e.target.value)} maxLength={140} data-testid="import-new-name" />
                    </Field>
                  )}
                  {issues.length > 0 && (
                    <Alert tone="error" title={t("statementImport.failed")}>
                      <ul data-testid="import-issues">
                        {issues.map((issue) => (
                          <li key={`${issue.path}:${issue.key}`}>{translateKey(i18n, { key: issue.key, params: issue.params })}</li>
                        ))}
                      </ul>
                    </Alert>
                  )}
                  <div className={formStyles.actions}>
                    <Button variant="ghost" onClick={restart}>
                      {t("statementImport.cancel")}
                    </Button>
                    <Button
                      variant="primary"
                      icon={<FileUp size={16} />}
                      loading={importing}
                      disabled={(where === "existing" && chosenId === "") || (where === "new" && newName.trim() === "")}
                      onClick={() => void doImport()}
                      data-testid="import-submit"
                    >
                      {t("statementImport.submit")}
                    </Button>
                  </div>
                </div>
              </Card>
            </>
          )}

          {step === "done" && result && (
            <Card title={t("statementImport.done.title")} data-testid="import-summary" data-step-focus="" tabIndex={-1}>
              {result.created + result.updated + result.flowsCreated === 0 ? (
                <Alert tone="info" title={t("statementImport.done.nothingTitle")}>
                  <span data-testid="import-nothing">{t("statementImport.done.nothing")}</span>
                </Alert>
              ) : (
                <Alert tone="success" title={t("statementImport.done.okTitle")}>
                  {t("statementImport.done.ok")}
                </Alert>
              )}
              <ul className={styles.summary}>
                <li data-testid="import-created">{t("statementImport.done.created", { count: result.created })}</li>
                {result.updated > 0 && <li>{t("statementImport.done.updated", { count: result.updated })}</li>}
                <li data-testid="import-duplicates">{t("statementImport.done.duplicates", { count: result.duplicates })}</li>
                {result.negative.length > 0 && <li>{t("statementImport.done.negative", { count: result.negative.length, dates: result.negative.map((d) => fmt.date(d)).join(", ") })}</li>}
                <li>{t("statementImport.done.flows", { count: result.flowsCreated })}</li>
                {result.flowsExisting > 0 && <li>{t("statementImport.done.flowsExisting", { count: result.flowsExisting })}</li>}
                {result.leftOut > 0 && <li data-testid="import-left-out">{t("statementImport.done.leftOut", { count: result.leftOut })}</li>}
              </ul>
              <div className={formStyles.actions}>
                <Button variant="ghost" onClick={restart} data-testid="import-again">
                  {t("statementImport.done.again")}
                </Button>
                <Link to="/assets/$assetId" params={{ assetId: result.assetId }} className={buttonClass({ variant: "primary" })} data-testid="import-open-asset">
                  {t("statementImport.done.openAsset")}
                </Link>
              </div>
            </Card>
          )}
        </div>
      )}
    </div>
  );
}
