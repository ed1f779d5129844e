// The shape of the help texts: one module per language (es.ts, en.ts) with the same sections and the
// same entries, by id and in the same order (help.test.ts checks it), so the languages never drift.

/** The sections, in the order they are shown; also the deep links: /help?topic=<id>. */
export const HELP_TOPICS = ["start", "sync", "offline", "security", "binder", "faq"] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

/** The screens the help links to: each a path of the app's router (help.test.ts checks that every
 * one opens a screen, not "Not Found"). */
export const HELP_LINK_TARGETS = [
  "/",
  "/assets",
  "/assets/new",
  "/liabilities",
  "/flows",
  "/beneficiaries",
  "/beneficiaries/binder",
  "/tasks",
  "/logins",
  "/profile",
  "/workspaces",
  "/privacy",
] as const;
export type HelpLinkTarget = (typeof HELP_LINK_TARGETS)[number];

/** A link from an entry to the screen it talks about ("Go to Liabilities"). */
export interface HelpLink {
  to: HelpLinkTarget;
  /** Search parameters of the screen (e.g. the tasks' overdue filter). */
  search?: Readonly<Record<string, string | number>>;
  /** The link's text: names the screen as the sidebar or the page does. */
  label: string;
}

export interface HelpEntry {
  /** Stable id, the same in every language. */
  id: string;
  /** A question, a status as the app shows it, a step. */
  title: string;
  paragraphs: readonly string[];
  /** An optional list after the paragraphs. */
  items?: readonly string[];
  /** The screens it talks about, linked after the text (the same targets, in the same order, in
   * every language). */
  links?: readonly HelpLink[];
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
