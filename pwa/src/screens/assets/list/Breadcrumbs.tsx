// The way back from a class or a category to the asset list: "Activos › Inmuebles › Residencial",
// the last item being the current page.
import { Link, type LinkProps } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import styles from "./AssetList.module.css";

export interface Crumb {
  label: string;
  /** Where it leads; the last crumb (the current page) has none. */
  link?: Pick<LinkProps, "to" | "params" | "search">;
}

export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("assetList.breadcrumbs")} className={styles.crumbs} data-testid="breadcrumbs">
      <ol>
        {items.map((item, index) => (
          <li key={index}>
            {item.link ? (
              <Link {...item.link}>{item.label}</Link>
            ) : (
              <span aria-current="page">{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
