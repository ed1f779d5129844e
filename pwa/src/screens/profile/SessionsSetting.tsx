// The profile's signed-in devices: each session with its browser, address and last use, "sign out"
// for one, and "sign out of all other devices". The server closes their sync sockets at once.
import { LogOut, MonitorSmartphone } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../api/useErrorText";
import { type SessionInfo, useEndSession, useSessions, useSignOutOthers } from "../../auth/accountApi";
import { deviceName } from "../../auth/passkeys";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { focusLost, useFocusKeeper } from "../../ui/focusKeeper";
import styles from "./profile.module.css";

const NONE: SessionInfo[] = [];
const sessionKey = (s: SessionInfo) => s.id;
const TITLE_FALLBACK = ['[data-control="title"]'];

export function SessionsSetting() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormatters();
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useSignOutOthers();
  const describe = (s: SessionInfo) => deviceName(s.userAgent, t("account.sessions.unknownDevice"));
  const when = (iso: string) => format.date(iso, { dateStyle: "medium", timeStyle: "short" });
  const others = sessions.data?.filter((s) => !s.current) ?? [];
  const failed = [end, endOthers].find((m) => m.isError);
  // A session signed out with focus on its button hands focus to the next one's, else to the title
  // (ui/focusKeeper.ts); so does "sign out of all other devices", which goes with them.
  const root = useRef<HTMLDivElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  useFocusKeeper(root, sessions.data ?? NONE, sessionKey, TITLE_FALLBACK);
  const focusTitleIfLost = () =>
    setTimeout(() => {
      if (focusLost()) title.current?.focus();
    }, 0);

  return (
    <div className={styles.setting} data-testid="sessions-setting" ref={root}>
      <div className={styles.settingRow}>
        <span className={styles.settingIcon} aria-hidden="true">
          <MonitorSmartphone size={18} />
        </span>
        <div className={styles.settingBody}>
          <h3 className={styles.settingTitle} ref={title} tabIndex={-1} data-control="title">
            {t("account.sessions.title")}
          </h3>
          <p className={styles.settingText}>{t("account.sessions.text")}</p>
        </div>
        {others.length > 0 && (
          <Button
            variant="danger-outline"
            icon={<LogOut size={16} />}
            loading={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ ended }) => {
                  notify("success", t("account.sessions.endedOthers", { count: ended }));
                  focusTitleIfLost();
                },
              })
            }
          >
            {t("account.sessions.endOthers")}
          </Button>
        )}
      </div>
      {failed && <Alert>{errorText(failed.error)}</Alert>}
      {sessions.isError && <Alert>{errorText(sessions.error)}</Alert>}
      {sessions.data && (
        <ul className={styles.list} aria-label={t("account.sessions.title")}>
          {sessions.data.map((s) => (
            <li key={s.id} className={styles.item} data-testid="session-item" data-row-key={s.id}>
              <div>
                <span className={styles.itemName}>
                  {describe(s)} {s.current && <Badge tone="success">{t("account.sessions.current")}</Badge>}
                </span>
                <span className={styles.itemMeta}>
                  {t("account.sessions.lastSeen", { date: when(s.lastSeenAt) })}
                  {s.ip && ` · ${s.ip}`}
                  {" · "}
                  {t("account.sessions.signedIn", { date: when(s.createdAt) })}
                </span>
              </div>
              {!s.current && (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={t("account.sessions.endLabel", { device: describe(s) })}
                  data-control="end"
                  loading={end.isPending && end.variables === s.id}
                  onClick={() => end.mutate(s.id, { onSuccess: () => notify("success", t("account.sessions.ended")) })}
                >
                  {t("account.sessions.end")}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions.data && others.length === 0 && <p className={styles.empty}>{t("account.sessions.none")}</p>}
    </div>
  );
}
