// "Skip to content": the first focusable element of a layout, visible only when focused.
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { MAIN_SCROLL_ID } from "../router/config";
import styles from "./SkipLink.module.css";

export function SkipLink({ target }: { target: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  return (
    <a
      className={styles.skipLink}
      href={`#${MAIN_SCROLL_ID}`}
      onClick={(event) => {
        event.preventDefault();
        target.current?.focus();
      }}
    >
      {t("app.skipToContent")}
    </a>
  );
}
