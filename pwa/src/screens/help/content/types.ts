// The shape of the help texts: one module per language (es.ts, en.ts) with the same sections and the
// same entries, by id and in the same order (help.test.ts checks it), so the languages never drift.

/** The sections, in the order they are shown; also the deep links: /help?topic=<id>. */
export const HELP_TOPICS = ["start", "sync", "offline", "security", "binder", "faq"] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

export interface HelpEntry {
  /** Stable id, the same in every language. */
  id: string;
  /** A question, a status as the app shows it, a step. */
  title: string;
  paragraphs: readonly string[];
  /** An optional list after the paragraphs. */
  items?: readonly string[];
}

export interface HelpSection {
  id: HelpTopic;
  title: string;
  /** One line under the title (also in the table of contents). */
  summary: string;
  entries: readonly HelpEntry[];
}

export interface HelpTexts {
  sections: readonly HelpSection[];
}
