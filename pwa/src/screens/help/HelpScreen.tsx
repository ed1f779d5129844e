// /help?topic=<section>&q=<text> (issue 13): getting started, what each sync status means and what to
// do with a conflict or a refused change, working offline, security, the executor's binder and the
// FAQ, in the reader's language (content/es.ts, content/en.ts). Searchable without caring about
// accents or case; ?topic= opens a section (a deep link: /help?topic=sync). The texts are in this
// screen's own chunk, which the service worker precaches with the rest of the app: it works offline.
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ArrowRight } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../i18n/useLanguage";
import { HELP_QUERY_MAX, type HelpSearch } from "../../router/areaRoutes";
import { EmptyState } from "../../ui/EmptyState";
import { Field } from "../../ui/Field";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import page from "../page.module.css";
import { helpEn } from "./content/en";
import { helpEs } from "./content/es";
import type { HelpSection } from "./content/types";
import styles from "./Help.module.css";
import { buildHelpIndex, countEntries, helpTopic, queryWords, searchHelp } from "./helpSearch";

const INDEXES = { es: buildHelpIndex(helpEs), en: buildHelpIndex(helpEn) } as const;

/** The id of a section's element: also an #anchor (/help#help-sync). */
export function sectionAnchor(id: string): string {
  return `help-${id}`;
}

export function HelpScreen() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const search = useSearch({ strict: false }) as HelpSearch;
  const navigate = useNavigate();
  const topic = helpTopic(search.topic);
  const urlQuery = search.q === undefined || search.q === null ? "" : String(search.q);
  const [query, setQuery] = useState(urlQuery);
  const written = useRef(urlQuery);
  const index = INDEXES[language === "en" ? "en" : "es"];
  const sections = useMemo(() => searchHelp(index, query), [index, query]);
  const found = countEntries(sections);
  // A query of punctuation only ("?", "--") has no words: it is no search (everything, no count).
  const searching = queryWords(query).length > 0;
  // Bumped by a click on a topic's link: clicking the topic already open again (the URL does not
  // change) still brings it into view and moves focus to it.
  const [focusRequest, setFocusRequest] = useState(0);

  // Back/forward or a link changed q: show it.
  useEffect(() => {
    if (urlQuery !== written.current) {
      written.current = urlQuery;
      setQuery(urlQuery);
    }
  }, [urlQuery]);

  // The search text goes to the URL (replace: typing is not history), shortly after typing stops.
  useEffect(() => {
    if (query === written.current) return;
    const timer = window.setTimeout(() => {
      written.current = query;
      void navigate({
        to: ".",
        replace: true,
        search: ((prev: HelpSearch) => {
          const next: Record<string, unknown> = { ...prev, q: query === "" ? undefined : query };
          if (next.q === undefined) delete next.q;
          return next;
        }) as never,
      });
    }, 250);
    return () => window.clearTimeout(timer);
  }, [query, navigate]);

  // A topic in the URL: bring its section into view and move focus to its heading (after the
  // router's own scroll reset of a navigation).
  useEffect(() => {
    if (!topic) return;
    const timer = window.setTimeout(() => {
      const heading = document.getElementById(`${sectionAnchor(topic)}-title`);
      if (!heading) return;
      heading.scrollIntoView({ block: "start" });
      heading.focus({ preventScroll: true });
    }, 60);
    return () => window.clearTimeout(timer);
  }, [topic, focusRequest]);

  return (
    <div className={page.page}>
      <PageHeader title={t("help.title")} subtitle={t("help.subtitle")} />
      <div className={styles.layout}>
        <nav className={styles.toc} aria-label={t("help.topics")} data-testid="help-toc">
          <h2 className={styles.tocTitle}>{t("help.topics")}</h2>
          <ul>
            {index.texts.sections.map((s) => (
              <li key={s.id}>
                <Link
                  to="/help"
                  search={{ topic: s.id }}
                  hash={sectionAnchor(s.id)}
                  className={styles.tocLink}
                  data-testid={`help-topic-${s.id}`}
                  // The topic's link carries no search: drop the typed one too (also a search still
                  // waiting to reach the URL), or it would hide the section the link opens.
                  onClick={() => {
                    written.current = "";
                    setQuery("");
                    setFocusRequest((n) => n + 1);
                  }}
                >
                  {s.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.content}>
          <div role="search" className={styles.search}>
            <Field label={t("help.searchLabel")} hint={t("help.searchHint")}>
              <SearchInput value={query} onChange={setQuery} maxLength={HELP_QUERY_MAX} placeholder={t("help.searchPlaceholder")} data-testid="help-search" />
            </Field>
            {/* What a search found, read out by screen readers: the count, or that nothing matched
                (shown below as the empty state, so only read out here). */}
            <p className={searching && found === 0 ? "visually-hidden" : styles.count} aria-live="polite" data-testid="help-result-count">
              {searching ? (found > 0 ? t("help.results", { count: found }) : t("help.noResults.title", { query: query.trim() })) : ""}
            </p>
          </div>
          {sections.length === 0 ? (
            <EmptyState data-testid="help-no-results" title={t("help.noResults.title", { query: query.trim() })} text={t("help.noResults.text")} />
          ) : (
            sections.map((section) => <Section key={section.id} section={section} current={topic === section.id} />)
          )}
        </div>
      </div>
    </div>
  );
}

function Section({ section, current }: { section: HelpSection; current: boolean }) {
  const anchor = sectionAnchor(section.id);
  return (
    <section id={anchor} aria-labelledby={`${anchor}-title`} className={styles.section} data-testid={`help-section-${section.id}`} data-current={current}>
      <h2 id={`${anchor}-title`} tabIndex={-1} className={styles.sectionTitle}>
        {section.title}
      </h2>
      <p className={styles.summary}>{section.summary}</p>
      {section.entries.map((entry) => (
        <article key={entry.id} className={styles.entry} data-testid="help-entry" data-entry={`${section.id}.${entry.id}`}>
          <h3 className={styles.entryTitle}>{entry.title}</h3>
          {entry.paragraphs.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {entry.items && (
            <ul className={styles.items}>
              {entry.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          )}
          {entry.links && (
            <ul className={styles.links} data-testid="help-links">
              {entry.links.map((link) => (
                <li key={`${link.to}?${JSON.stringify(link.search ?? {})}`}>
                  <Link to={link.to} search={(link.search ?? {}) as never} className={styles.link}>
                    {link.label}
                    <ArrowRight size={14} aria-hidden="true" />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
    </section>
  );
}
