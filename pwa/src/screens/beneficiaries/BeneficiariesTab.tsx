// The beneficiaries: each with relationship, contact data, notes and what they receive (single assets
// or a share of the whole estate); added, edited and deleted in dialogs.
import { deleteBeneficiary } from "@patrimonio/clientdb";
import { Mail, MapPin, Pencil, Phone, Plus, Trash2, Users } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { allocationSums } from "../../estate/readiness";
import type { BeneficiaryRec } from "../../estate/hooks";
import { hasContact } from "../../estate/count";
import { useFormatters } from "../../i18n/useFormatters";
import { Dec } from "../../money";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { AlertDialog } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { useFocusKeeper } from "../../ui/focusKeeper";
import styles from "./beneficiaries.module.css";
import { BeneficiaryDialog } from "./BeneficiaryDialog";
import { useEstate } from "./context";
import { useSchemaLabel } from "./labels";
import { useAssetNames } from "../../assets/hooks";

/** Where focus goes when no card is left. */
const ADD_FALLBACK = ['[data-control="add"]'];

type Editing = { mode: "add" } | { mode: "edit"; record: BeneficiaryRec } | null;

export function BeneficiariesTab() {
  const { t } = useTranslation();
  const { beneficiaries, canEdit } = useEstate();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<BeneficiaryRec | null>(null);
  const sorted = useMemo(() => [...beneficiaries].sort((a, b) => a.fields.name.localeCompare(b.fields.name)), [beneficiaries]);
  // A card deleted with focus in it (its confirmation) hands focus to the same button of the card
  // now in its place, or to "add" when none is left (ui/focusKeeper.ts).
  const root = useRef<HTMLDivElement>(null);
  useFocusKeeper(root, sorted, (b) => b.id, ADD_FALLBACK);
  return (
    <div className={styles.tab} ref={root}>
      {canEdit && (
        <div className={styles.toolbar}>
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing({ mode: "add" })} data-control="add" data-testid="add-beneficiary">
            {t("beneficiaries.add")}
          </Button>
        </div>
      )}
      {sorted.length === 0 ? (
        <EmptyState icon={<Users size={24} />} title={t("beneficiaries.empty.title")} text={t("beneficiaries.empty.text")} data-testid="beneficiaries-empty" />
      ) : (
        <ul className={styles.cards}>
          {sorted.map((b) => (
            <li key={b.id} data-row-key={b.id}>
              <BeneficiaryCard record={b} onEdit={() => setEditing({ mode: "edit", record: b })} onDelete={() => setDeleting(b)} />
            </li>
          ))}
        </ul>
      )}
      {editing && <BeneficiaryDialog record={editing.mode === "edit" ? editing.record : undefined} onClose={() => setEditing(null)} />}
      {deleting && <DeleteBeneficiary record={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function BeneficiaryCard({ record, onEdit, onDelete }: { record: BeneficiaryRec; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const label = useSchemaLabel();
  const { assets, beneficiaries, canEdit } = useEstate();
  const f = record.fields;
  // A sold asset still given to someone says so (the allocation stays until changed).
  const names = useAssetNames(assets);
  const sums = useMemo(() => allocationSums(beneficiaries.map((b) => b.fields)), [beneficiaries]);
  const hundred = new Dec(100);
  return (
    <Card
      title={f.name}
      description={label("relationship", f.relationship)}
      headingLevel={3}
      data-testid="beneficiary"
      data-name={f.name}
      actions={
        canEdit && (
          <div className={styles.actions}>
            <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={onEdit} aria-label={t("beneficiaries.editNamed", { name: f.name })} data-control="edit">
              {t("beneficiaries.edit")}
            </Button>
            <Button size="sm" variant="ghost" icon={<Trash2 size={16} />} onClick={onDelete} aria-label={t("beneficiaries.deleteNamed", { name: f.name })} data-control="delete">
              {t("beneficiaries.delete")}
            </Button>
          </div>
        )
      }
    >
      <div className={styles.cardBody}>
        {hasContact(f) ? (
          <ul className={styles.contact} aria-label={t("beneficiaries.fields.contact")}>
            {f.email && (
              <li>
                <Mail size={14} aria-hidden="true" /> <span className="visually-hidden">{t("beneficiaries.fields.email")}: </span>
                {f.email}
              </li>
            )}
            {f.phone && (
              <li>
                <Phone size={14} aria-hidden="true" /> <span className="visually-hidden">{t("beneficiaries.fields.phone")}: </span>
                {f.phone}
              </li>
            )}
            {f.address && (
              <li>
                <MapPin size={14} aria-hidden="true" /> <span className="visually-hidden">{t("beneficiaries.fields.address")}: </span>
                {f.address}
              </li>
            )}
          </ul>
        ) : (
          <p>
            <Badge tone="warning" data-testid="no-contact">
              {t("beneficiaries.noContact")}
            </Badge>
          </p>
        )}
        <div>
          <h4 className={styles.subheading}>{t("beneficiaries.fields.allocations")}</h4>
          {(f.allocations ?? []).length === 0 ? (
            <p className={styles.muted}>{t("beneficiaries.noAllocations")}</p>
          ) : (
            <ul className={styles.allocations} data-testid="allocations">
              {(f.allocations ?? []).map((a) => {
                const target = a.assetId ?? "";
                const over = (sums.get(target) ?? new Dec(0)).gt(hundred);
                return (
                  <li key={target} data-testid="allocation" data-target={target || "estate"}>
                    <span>{a.assetId ? (names.get(a.assetId) ?? t("beneficiaries.unknownAsset")) : t("beneficiaries.wholeEstate")}</span>
                    <span className={styles.percent}>{fmt.percent(a.percentage)}</span>
                    {over && <Badge tone="danger">{t("beneficiaries.overBadge")}</Badge>}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        {f.notes && <p className={styles.notes}>{f.notes}</p>}
      </div>
    </Card>
  );
}

function DeleteBeneficiary({ record, onClose }: { record: BeneficiaryRec; onClose: () => void }) {
  const { t } = useTranslation();
  const { db, instructions } = useEstate();
  const [busy, setBusy] = useState(false);
  const about = instructions.filter((i) => i.fields.beneficiaryId === record.id).length;
  return (
    <AlertDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={t("beneficiaries.deleteTitle", { name: record.fields.name })}
      description={about > 0 ? t("beneficiaries.deleteKeepsInstructions", { count: about }) : t("beneficiaries.deleteText")}
      confirmLabel={t("beneficiaries.deleteConfirm")}
      loading={busy}
      onConfirm={() => {
        setBusy(true);
        void deleteBeneficiary(db, record.id).then(() => onClose());
      }}
    />
  );
}
