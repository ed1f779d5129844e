// The CSV column mapping: the institution (its saved mapping is filled in), the account and
// currency, how the file is cut (delimiter, rows before the data, header) and which column holds
// what, with the first rows of the file as read with the current choices. It starts from the newest
// saved mapping that reads the file (initialMapping), else from the columns' names. "Read the file" saves the
// mapping for the institution on this device and reads the file with it.
import { Controller } from "react-hook-form";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { saveImportMapping, useClientDb, useImportMappings } from "@patrimonio/clientdb";
import formStyles from "../../forms/form.module.css";
import { useSchemaForm } from "../../forms/schemaForm";
import { CSV_DATE_FORMATS, csvTable } from "../../import/csv";
import { useLanguage } from "../../i18n/useLanguage";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Checkbox } from "../../ui/Checkbox";
import { CURRENCY_CODES, currencyName } from "../../ui/currency";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { RadioGroup } from "../../ui/RadioGroup";
import { TextInput } from "../../ui/TextInput";
import { EMPTY_MAPPING, csvMappingFormSchema, findHeaderRow, fromSaved, guessDateFormat, guessMapping, initialMapping, sampleCellText, isSavedCsvMapping, toMapping, type SavedCsvMapping } from "./csvMapping";
import type { CsvOptions } from "../../import/csv";
import styles from "./import.module.css";
import { ScrollRegion } from "../../ui/ScrollRegion";

const DATE_FORMAT_LABELS = {
  "DD/MM/YYYY": "statementImport.mapping.dateFormats.dmySlash",
  "DD-MM-YYYY": "statementImport.mapping.dateFormats.dmyDash",
  "DD.MM.YYYY": "statementImport.mapping.dateFormats.dmyDot",
  "DD/MM/YY": "statementImport.mapping.dateFormats.dmyShort",
  "YYYY-MM-DD": "statementImport.mapping.dateFormats.iso",
  "MM/DD/YYYY": "statementImport.mapping.dateFormats.mdy",
  SERIAL: "statementImport.mapping.dateFormats.serial",
} as const;

export interface CsvMappingStepProps {
  text: string;
  busy: boolean;
  onRead: (options: CsvOptions) => void;
  onBack: () => void;
}

export function CsvMappingStep({ text, busy, onRead, onBack }: CsvMappingStepProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const saved = useImportMappings();
  // Without a saved mapping: the header row found among the first rows, its columns guessed.
  const guessed = useMemo(() => {
    const rows = csvTable(text, { delimiter: "", skipRows: 0, header: false, sampleRows: 10 }).sample;
    const header = findHeaderRow(rows);
    const skipRows = header === undefined ? 0 : header + 1;
    const guess = guessMapping(header === undefined ? [] : (rows[header] ?? []), { ...EMPTY_MAPPING, skipRows: String(skipRows), header: header !== undefined });
    return { ...guess, dateFormat: guessDateFormat(rows.slice(skipRows), Number(guess.dateColumn), guess.dateFormat) };
  }, [text]);
  const initial = useMemo(() => initialMapping(saved ?? [], text, guessed), [saved, text, guessed]);
  const form = useSchemaForm(csvMappingFormSchema, { defaultValues: EMPTY_MAPPING });
  const { reset } = form;
  // Once, when the device database first answers: the newest saved mapping, else the guess. (The
  // list is live, and the meta table changes with every sync; what is typed is never replaced.)
  const filled = useRef(false);
  useEffect(() => {
    if (saved === undefined || filled.current) return;
    filled.current = true;
    reset(initial);
  }, [saved, initial, reset]);

  const values = form.watch();
  const table = useMemo(() => {
    const skip = Number(values.skipRows);
    return csvTable(text, { delimiter: values.delimiter, skipRows: Number.isFinite(skip) ? skip : 0, header: values.header });
  }, [text, values.delimiter, values.skipRows, values.header]);
  const sampleCell = (value: string, column: number): string => sampleCellText(value, column, values, language);
  const columnOptions = table.columns.map((name, i) => (
    <option key={i} value={String(i)}>
      {name}
    </option>
  ));
  const none = <option value="">{t("statementImport.mapping.none")}</option>;
  const codes = useMemo(() => [...CURRENCY_CODES].sort((a, b) => currencyName(a, language).localeCompare(currencyName(b, language), language)), [language]);

  const chooseInstitution = (name: string) => {
    const row = saved?.find((r) => r.institution.toLowerCase() === name.trim().toLowerCase());
    if (row && isSavedCsvMapping(row.mapping)) reset(fromSaved(row.institution, row.mapping));
  };

  const submit = form.submit(async (v) => {
    const mapping = toMapping(v);
    const columns = mapping.header ? csvTable(text, { delimiter: mapping.delimiter, skipRows: mapping.skipRows, header: true, sampleRows: 0 }).columns : undefined;
    const keep: SavedCsvMapping = { mapping, account: v.account, currency: v.currency, ...(columns ? { columns } : {}) };
    if (db) await saveImportMapping(db, v.institution, keep);
    onRead({ mapping, account: v.account, institution: v.institution, currency: v.currency });
  });

  return (
    <Card title={t("statementImport.mapping.title")} description={t("statementImport.mapping.description")} data-testid="import-mapping" data-step-focus="" tabIndex={-1}>
      <form noValidate onSubmit={submit} className={styles.mapping}>
        <div className={styles.grid}>
          <Field label={t("statementImport.mapping.institution")} hint={t("statementImport.mapping.institutionHint")} error={form.errorText("institution")} required>
            <TextInput {...form.register("institution", { onBlur: (e: { target: { value: string } }) => chooseInstitution(e.target.value) })} list="import-institutions" autoComplete="off" />
          </Field>
          <datalist id="import-institutions">
            {(saved ?? []).map((r) => (
              <option key={r.key} value={r.institution} />
            ))}
          </datalist>
          <Field label={t("statementImport.mapping.account")} hint={t("statementImport.mapping.accountHint")} error={form.errorText("account")}>
            <TextInput {...form.register("account")} autoComplete="off" />
          </Field>
          <Field label={t("statementImport.mapping.currency")} error={form.errorText("currency")} required>
            <NativeSelect {...form.register("currency")}>
              {codes.map((c) => (
                <option key={c} value={c}>
                  {c} · {currencyName(c, language)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.delimiter")} error={form.errorText("delimiter")}>
            <NativeSelect {...form.register("delimiter")}>
              <option value="">{t("statementImport.mapping.delimiterAuto")}</option>
              <option value=";">{t("statementImport.mapping.delimiterSemicolon")}</option>
              <option value=",">{t("statementImport.mapping.delimiterComma")}</option>
              <option value={"\t"}>{t("statementImport.mapping.delimiterTab")}</option>
              <option value="|">{t("statementImport.mapping.delimiterPipe")}</option>
            </NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.skipRows")} hint={t("statementImport.mapping.skipRowsHint")} error={form.errorText("skipRows")} required>
            <TextInput {...form.register("skipRows")} inputMode="numeric" />
          </Field>
          <Field label={t("statementImport.mapping.decimalSeparator")} error={form.errorText("decimalSeparator")} required>
            <NativeSelect {...form.register("decimalSeparator")}>
              <option value=",">{t("statementImport.mapping.decimalComma")}</option>
              <option value=".">{t("statementImport.mapping.decimalPoint")}</option>
            </NativeSelect>
          </Field>
        </div>
        <Controller
          control={form.control}
          name="header"
          render={({ field }) => <Checkbox label={t("statementImport.mapping.header")} checked={field.value} onCheckedChange={(c) => field.onChange(c)} onBlur={field.onBlur} name={field.name} />}
        />
        <div className={styles.grid}>
          <Field label={t("statementImport.mapping.dateColumn")} error={form.errorText("dateColumn")} required>
            <NativeSelect {...form.register("dateColumn")}>{columnOptions}</NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.dateFormat")} error={form.errorText("dateFormat")} required>
            <NativeSelect {...form.register("dateFormat")}>
              {CSV_DATE_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {t(DATE_FORMAT_LABELS[f])}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.valueDateColumn")} error={form.errorText("valueDateColumn")}>
            <NativeSelect {...form.register("valueDateColumn")}>
              {none}
              {columnOptions}
            </NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.descriptionColumn")} error={form.errorText("descriptionColumn")} required>
            <NativeSelect {...form.register("descriptionColumn")}>{columnOptions}</NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.referenceColumn")} error={form.errorText("referenceColumn")}>
            <NativeSelect {...form.register("referenceColumn")}>
              {none}
              {columnOptions}
            </NativeSelect>
          </Field>
          <Field label={t("statementImport.mapping.balanceColumn")} hint={t("statementImport.mapping.balanceHint")} error={form.errorText("balanceColumn")}>
            <NativeSelect {...form.register("balanceColumn")}>
              {none}
              {columnOptions}
            </NativeSelect>
          </Field>
        </div>
        <Field label={t("statementImport.mapping.amountKind")} group>
          <Controller
            control={form.control}
            name="amountKind"
            render={({ field }) => (
              <RadioGroup
                {...field}
                orientation="horizontal"
                options={[
                  { value: "signed", label: t("statementImport.mapping.amountSigned") },
                  { value: "split", label: t("statementImport.mapping.amountSplit") },
                ]}
              />
            )}
          />
        </Field>
        <div className={styles.grid}>
          {values.amountKind === "signed" ? (
            <Field label={t("statementImport.mapping.amountColumn")} error={form.errorText("amountColumn")} required>
              <NativeSelect {...form.register("amountColumn")}>
                {none}
                {columnOptions}
              </NativeSelect>
            </Field>
          ) : (
            <>
              <Field label={t("statementImport.mapping.debitColumn")} error={form.errorText("debitColumn")} required>
                <NativeSelect {...form.register("debitColumn")}>
                  {none}
                  {columnOptions}
                </NativeSelect>
              </Field>
              <Field label={t("statementImport.mapping.creditColumn")} error={form.errorText("creditColumn")} required>
                <NativeSelect {...form.register("creditColumn")}>
                  {none}
                  {columnOptions}
                </NativeSelect>
              </Field>
            </>
          )}
        </div>
        <ScrollRegion className={styles.tableWrap}>
          <table className={styles.table} data-testid="import-sample">
            <caption>{t("statementImport.mapping.sample")}</caption>
            <thead>
              <tr>
                {table.columns.map((c, i) => (
                  <th key={i} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.sample.map((row, r) => (
                <tr key={r}>
                  {table.columns.map((_, i) => (
                    <td key={i}>{sampleCell(row[i] ?? "", i)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <div className={formStyles.actions}>
          <Button type="button" variant="ghost" onClick={onBack}>
            {t("statementImport.back")}
          </Button>
          <Button type="submit" variant="primary" loading={busy || form.formState.isSubmitting} data-testid="import-read-csv">
            {t("statementImport.mapping.read")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
