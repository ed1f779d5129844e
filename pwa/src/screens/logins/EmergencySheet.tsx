// The printable emergency sheet for heirs: how to open the vault (where, with which account, that a
// passphrase is needed and a blank line to write where it is kept) and the list of logins —
// institution, address and user name. Decision: it NEVER prints a secret, a note or the passphrase,
// locked or unlocked: a lost sheet must not open anything; the passphrase travels separately
// (a notary, a safe, a sealed envelope). Printing hides the rest of the page (logins.module.css).
import { Printer } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../i18n/useFormatters";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import type { LoginRec } from "./hooks";
import styles from "./logins.module.css";

interface Props {
  logins: LoginRec[];
  assetNames: ReadonlyMap<string, string>;
  onClose: () => void;
}

export function EmergencySheet({ logins, assetNames, onClose }: Props) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const address = `${window.location.origin}/logins`;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={t("vault.sheet.title")}
      description={t("vault.sheet.description")}
      data-testid="vault-sheet"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("vault.sheet.close")}</Button>
          </DialogClose>
          <Button variant="primary" icon={<Printer size={16} />} onClick={() => window.print()} data-testid="vault-sheet-print">
            {t("vault.sheet.print")}
          </Button>
        </>
      }
    >
      <article className={styles.sheet} data-testid="vault-sheet-content">
        <h3 className={styles.sheetTitle}>{t("vault.sheet.heading")}</h3>
        <p>{t("vault.sheet.date", { date: fmt.date(today) })}</p>
        <p>{t("vault.sheet.intro")}</p>
        <ol className={styles.steps}>
          <li>{t("vault.sheet.step1", { address })}</li>
          <li>{t("vault.sheet.step2")}</li>
          <li>{t("vault.sheet.step3")}</li>
          <li>{t("vault.sheet.step4")}</li>
        </ol>
        <p className={styles.blank}>{t("vault.sheet.where")}</p>
        <p><strong>{t("vault.sheet.noSecrets")}</strong></p>
        <table className={styles.sheetTable}>
          <caption>{t("vault.sheet.listTitle", { count: logins.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("logins.fields.institution")}</th>
              <th scope="col">{t("logins.fields.url")}</th>
              <th scope="col">{t("logins.fields.username")}</th>
              <th scope="col">{t("logins.fields.asset")}</th>
            </tr>
          </thead>
          <tbody>
            {logins.map((l) => (
              <tr key={l.id}>
                <td>{l.fields.institution}</td>
                <td>{l.fields.url ?? "—"}</td>
                <td>{l.fields.username ?? "—"}</td>
                <td>{(l.fields.assetId && assetNames.get(l.fields.assetId)) ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
    </Dialog>
  );
}
