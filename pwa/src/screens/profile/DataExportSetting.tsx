// The profile's "Your data": downloads everything the person keeps in the app as one JSON file
// (pwa/src/export/exportData.ts), made on this device from its database — offline too.
import { useClientDb } from "@patrimonio/clientdb";
import { Download } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useWorkspaces } from "../../api/queries";
import type { Me } from "../../api/types";
import { downloadText } from "../../export/download";
import { buildDataExport, dataExportText, exportedRecordCount } from "../../export/exportData";
import { formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { localToday } from "../../time/localToday";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import styles from "./profile.module.css";

export function DataExportSetting({ me }: { me: Me }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  // The workspaces as the server last listed them, else /me's copy (offline).
  const { data: listed } = useWorkspaces();
  const workspaces = listed ?? me.workspaces;
  const [busy, setBusy] = useState(false);

  async function download() {
    if (db === null) return;
    setBusy(true);
    try {
      const data = await buildDataExport(db, me, workspaces);
      const fileName = `${t("profile.data.fileName")}-${localToday()}.json`;
      downloadText(fileName, dataExportText(data), "application/json");
      const count = exportedRecordCount(data);
      notify("success", t("profile.data.done", { count, n: formatNumber(count, language), file: fileName }));
    } catch (error) {
      console.error(error);
      notify("error", t("profile.data.failed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title={t("profile.data.title")} data-testid="data-export">
      <div className={styles.settings}>
        <div className={styles.setting}>
          <div className={styles.settingRow}>
            <span className={styles.settingIcon} aria-hidden="true">
              <Download size={18} />
            </span>
            <div className={styles.settingBody}>
              <h3 className={styles.settingTitle}>{t("profile.data.heading")}</h3>
              <p className={styles.settingText}>{t("profile.data.text")}</p>
              <p className={styles.settingText}>{t("profile.data.vault")}</p>
            </div>
            <Button onClick={() => void download()} disabled={db === null} loading={busy} loadingText={t("profile.data.preparing")}>
              {t("profile.data.download")}
            </Button>
          </div>
        </div>
      </div>
    </Card>
  );
}
