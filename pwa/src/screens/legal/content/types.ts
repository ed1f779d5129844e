// The shape of the legal texts: one module per language (es.ts, en.ts) with the same documents and
// the same sections in the same order (legal.test.ts checks it), so the two languages never drift.

export interface LegalSection {
  /** Stable id, the same in every language (also the heading's anchor). */
  id: string;
  heading: string;
  paragraphs: readonly string[];
  /** An optional list after the paragraphs. */
  items?: readonly string[];
}

export interface LegalDocument {
  title: string;
  /** The version's date, ISO yyyy-mm-dd; shown formatted in the reader's language. */
  updated: string;
  intro: readonly string[];
  sections: readonly LegalSection[];
}

export interface LegalTexts {
  terms: LegalDocument;
  privacy: LegalDocument;
}

export type LegalDocumentId = keyof LegalTexts;
