// /tos/ and /privacy/: the terms of service and the privacy policy, in the reader's language, inside
// the app shell for a signed-in user and in the plain layout for a visitor.
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../i18n/useLanguage";
import { useFormatters } from "../../i18n/useFormatters";
import { AdaptiveLayout } from "../../shell/AdaptiveLayout";
import { PageHeader } from "../../ui/PageHeader";
import { legalEn } from "./content/en";
import { legalEs } from "./content/es";
import type { LegalDocumentId, LegalTexts } from "./content/types";
import styles from "./LegalPage.module.css";

export const LEGAL_TEXTS = { es: legalEs, en: legalEn } as const satisfies Record<string, LegalTexts>;

/** The other legal page, linked at the end of each. */
const OTHER = { terms: { to: "/privacy", key: "shell.privacy" }, privacy: { to: "/tos", key: "shell.terms" } } as const;

export function LegalDocumentView({ id }: { id: LegalDocumentId }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const f = useFormatters();
  const doc = LEGAL_TEXTS[language][id];
  const other = OTHER[id];
  return (
    <article className={styles.page} data-testid={`legal-${id}`} lang={language}>
      <PageHeader title={doc.title} subtitle={t("legal.updated", { date: f.date(doc.updated, { dateStyle: "long" }) })} />
      <div className={styles.body}>
        {doc.intro.map((text) => (
          <p key={text} className={styles.intro}>
            {text}
          </p>
        ))}
        {doc.sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className={styles.section}>
            <h2 id={`${section.id}-heading`} className={styles.heading}>
              {section.heading}
            </h2>
            {section.paragraphs.map((text) => (
              <p key={text}>{text}</p>
            ))}
            {section.items && (
              <ul className={styles.items}>
                {section.items.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
        <p className={styles.other}>
          <Link to={other.to}>{t(other.key)}</Link>
        </p>
      </div>
    </article>
  );
}

export function TermsPage() {
  return (
    <AdaptiveLayout>
      <LegalDocumentView id="terms" />
    </AdaptiveLayout>
  );
}

export function PrivacyPage() {
  return (
    <AdaptiveLayout>
      <LegalDocumentView id="privacy" />
    </AdaptiveLayout>
  );
}
