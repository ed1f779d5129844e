// /beneficiaries/binder: the executor's binder. One printable document in the reader's language: the
// assets with where they are (tax location, where kept, holding structure) and at which institution,
// the debts, the beneficiaries and what each receives, the legacy instructions, and where the logins
// vault is and how to open it (never a secret: the vault's contents stay in the vault). "Print" calls
// window.print(); the print stylesheet (binder.module.css) drops the app's frame and prints the
// document alone, in black on white, over as many pages as it needs.
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Printer } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import { lookThrough, structuresMap } from "../../assets/lookThrough";
import { intlCountryName } from "../../assets/search";
import { subdivisionText, useSubdivisions } from "../../forms/subdivisions";
import { useAssetLabels } from "../../assets/useAssetLabels";
import { useAssetNames, useAssetWorkspace } from "../../assets/hooks";
import { groupInstructions, instructionFor } from "../../estate/instructions";
import { localToday } from "../../time/localToday";
import { useFormatters } from "../../i18n/useFormatters";
import { outstandingOf } from "../../liabilities/listModel";
import { Button } from "../../ui/Button";
import { Skeleton } from "../../ui/Skeleton";
import page from "../page.module.css";
import { useEstateContext } from "./BeneficiariesScreen";
import styles from "./binder.module.css";
import type { EstateContext } from "./context";
import { useSchemaLabel } from "./labels";
import { heldAssets } from "../../assets/disposal";

export function BinderScreen() {
  const { t } = useTranslation();
  const estate = useEstateContext();
  return (
    <div className={page.page}>
      <div className={styles.toolbar}>
        <Link to="/beneficiaries" className={styles.back}>
          <ArrowLeft size={16} aria-hidden="true" /> {t("binder.back")}
        </Link>
        <Button variant="primary" icon={<Printer size={16} />} onClick={() => window.print()} data-testid="binder-print" disabled={!estate}>
          {t("binder.print")}
        </Button>
      </div>
      {!estate ? (
        <div aria-busy="true">
          <h1 className="visually-hidden">{t("binder.title")}</h1>
          <p className="visually-hidden" role="status">
            {t("beneficiaries.loading")}
          </p>
          <Skeleton shape="block" />
        </div>
      ) : (
        <BinderDocument estate={estate} />
      )}
    </div>
  );
}

function BinderDocument({ estate }: { estate: EstateContext }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormatters();
  const label = useSchemaLabel();
  const labels = useAssetLabels();
  const me = useMe();
  const { workspaceId } = useAssetWorkspace();
  const { assets, structures, liabilities, beneficiaries, instructions } = estate;
  const country = useMemo(() => intlCountryName(i18n.language), [i18n.language]);
  const subdivisions = useSubdivisions();
  const structureById = useMemo(() => structuresMap(structures), [structures]);
  const structureNames = useMemo(() => new Map(structures.map((s) => [s.id, s.fields.name])), [structures]);
  // Where a debt, an allocation or an instruction names a sold asset, the name says so.
  const assetNames = useAssetNames(assets);
  const people = useMemo(() => [...beneficiaries].sort((a, b) => a.fields.name.localeCompare(b.fields.name)), [beneficiaries]);
  // The inventory is what the person holds; a sold asset keeps its name where instructions name it.
  const sortedAssets = useMemo(() => heldAssets(assets).sort((a, b) => a.fields.name.localeCompare(b.fields.name)), [assets]);
  const groups = useMemo(
    () => groupInstructions(instructions, assets.map((a) => ({ id: a.id, fields: { name: assetNames.get(a.id) ?? a.fields.name } })), beneficiaries),
    [instructions, assets, assetNames, beneficiaries],
  );
  const workspace = me.data?.workspaces.find((w) => w.id === workspaceId);
  const forWhom = (g: (typeof groups)[number], r: (typeof instructions)[number]) => instructionFor(g, r, beneficiaries);
  const today = localToday();
  const none = t("binder.none");

  const where = (a: (typeof assets)[number]): string => {
    const f = a.fields;
    const parts: string[] = [];
    const tax = f.taxLocation;
    if (tax?.noTaxRegistration) parts.push(t("binder.noTaxRegistration"));
    else if (tax?.country) parts.push([tax.city, subdivisionText(subdivisions, tax.country, tax.state, i18n.language), country(tax.country)].filter(Boolean).join(", "));
    if (f.collectible?.physicalLocation) parts.push(t("binder.keptAt", { place: f.collectible.physicalLocation }));
    if (f.legalStructureId) parts.push(t("binder.heldBy", { structure: structureNames.get(f.legalStructureId) ?? "?" }));
    return parts.length > 0 ? parts.join(" · ") : none;
  };
  const institution = (a: (typeof assets)[number]): string => {
    const f = a.fields;
    return f.institution ?? f.crypto?.exchangeName ?? f.investment?.manager ?? none;
  };

  return (
    <article className={styles.binder} data-testid="binder" lang={i18n.language}>
      <header className={styles.head}>
        <h1>{t("binder.title")}</h1>
        <p>{t("binder.intro")}</p>
        <p className={styles.meta}>
          {t("binder.preparedOn", { date: fmt.date(today) })}
          {workspace ? ` · ${t("binder.workspace", { name: workspace.name })}` : ""}
        </p>
      </header>

      <section aria-labelledby="binder-assets">
        <h2 id="binder-assets">{t("binder.assets.title", { count: sortedAssets.length })}</h2>
        {sortedAssets.length === 0 ? (
          <p>{t("binder.assets.empty")}</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{t("binder.assets.name")}</th>
                <th scope="col">{t("binder.assets.where")}</th>
                <th scope="col">{t("binder.assets.institution")}</th>
                <th scope="col" className={styles.num}>
                  {t("binder.assets.value")}
                </th>
              </tr>
            </thead>
            <tbody>
              {sortedAssets.map((a) => {
                const look = lookThrough(a.fields, structureById);
                return (
                  <tr key={a.id} data-testid="binder-asset">
                    <th scope="row">
                      {a.fields.name}
                      <span className={styles.sub}>
                        {labels.classLabel(a.fields.assetClass)} · {labels.categoryLabel(a.fields.category, a.fields.customCategory, a.fields.assetClass)}
                      </span>
                    </th>
                    <td>{where(a)}</td>
                    <td>{institution(a)}</td>
                    <td className={styles.num}>
                      {look.value === undefined ? none : fmt.money(look.value, a.fields.currency)}
                      {look.value !== undefined && a.fields.valuationDate && <span className={styles.sub}>{t("binder.assets.valuedOn", { date: fmt.date(a.fields.valuationDate) })}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="binder-debts">
        <h2 id="binder-debts">{t("binder.debts.title", { count: liabilities.length })}</h2>
        {liabilities.length === 0 ? (
          <p>{t("binder.debts.empty")}</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{t("binder.debts.name")}</th>
                <th scope="col">{t("binder.debts.creditor")}</th>
                <th scope="col">{t("binder.debts.asset")}</th>
                <th scope="col" className={styles.num}>
                  {t("binder.debts.outstanding")}
                </th>
              </tr>
            </thead>
            <tbody>
              {liabilities.map((l) => (
                <tr key={l.id} data-testid="binder-debt">
                  <th scope="row">
                    {l.fields.name}
                    <span className={styles.sub}>{label("liabilityKind", l.fields.kind)}</span>
                  </th>
                  <td>{l.fields.creditorName ?? none}</td>
                  <td>{l.fields.assetId ? (assetNames.get(l.fields.assetId) ?? none) : none}</td>
                  <td className={styles.num}>{fmt.money(outstandingOf(l, today), l.fields.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="binder-beneficiaries">
        <h2 id="binder-beneficiaries">{t("binder.beneficiaries.title", { count: people.length })}</h2>
        {people.length === 0 && <p>{t("binder.beneficiaries.empty")}</p>}
        {people.map((b) => {
          const f = b.fields;
          const contact = [f.email, f.phone, f.address].filter(Boolean).join(" · ");
          return (
            <div key={b.id} className={styles.person} data-testid="binder-beneficiary">
              <h3>
                {f.name} <span className={styles.sub}>({label("relationship", f.relationship)})</span>
              </h3>
              <p>{t("binder.beneficiaries.contact", { contact: contact || t("binder.beneficiaries.noContact") })}</p>
              {(f.allocations ?? []).length === 0 ? (
                <p>{t("binder.beneficiaries.noAllocations")}</p>
              ) : (
                <ul>
                  {(f.allocations ?? []).map((a) => (
                    <li key={a.assetId ?? "estate"}>
                      {t("binder.beneficiaries.allocation", {
                        target: a.assetId ? (assetNames.get(a.assetId) ?? none) : t("beneficiaries.wholeEstate"),
                        percent: fmt.percent(a.percentage),
                      })}
                    </li>
                  ))}
                </ul>
              )}
              {f.notes && <p className={styles.notes}>{f.notes}</p>}
            </div>
          );
        })}
      </section>

      <section aria-labelledby="binder-instructions">
        <h2 id="binder-instructions">{t("binder.instructions.title", { count: instructions.length })}</h2>
        {groups.length === 0 && <p>{t("binder.instructions.empty")}</p>}
        {groups.map((g) => (
          <div key={g.key} className={styles.group}>
            <h3>{g.kind === "general" ? t("legacy.general") : g.kind === "asset" ? t("legacy.aboutAsset", { name: g.name }) : t("legacy.aboutBeneficiary", { name: g.name })}</h3>
            <ol>
              {g.items.map((r) => (
                <li key={r.id} data-testid="binder-instruction">
                  {r.fields.priority && <strong>{t("legacy.priorityValue", { priority: label("priority", r.fields.priority) })}: </strong>}
                  {r.fields.text}
                  {forWhom(g, r) !== undefined && <span data-testid="binder-instruction-for"> — {t("legacy.forBeneficiary", { name: forWhom(g, r) })}</span>}
                </li>
              ))}
            </ol>
          </div>
        ))}
      </section>

      <section aria-labelledby="binder-vault" className={styles.vault}>
        <h2 id="binder-vault">{t("binder.vault.title")}</h2>
        <p>{t("binder.vault.where")}</p>
        <p>
          <strong>{t("binder.vault.how")}</strong>
        </p>
        <p>{t("binder.vault.noSecrets")}</p>
      </section>
    </article>
  );
}

