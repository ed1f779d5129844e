// The help's search: accent- and case-insensitive ("conexion" finds "conexión", "SINCRONIZACION"
// finds "Sincronización"), with the kit's folding (ui/search.ts, the same the asset list and the
// pickers use). Every word of the query must appear in an entry (its title, text and list, plus its
// section's title); an entry matches on its own, so a result is the section with only the entries
// that matched. A plural finds its singular too ("tareas vencidas" finds "una tarea vencida",
// "conflicts" finds "conflict"), and the links' texts count. The folded texts are built once per
// language.
import { foldText } from "../../ui/search";
import { HELP_TOPICS, type HelpEntry, type HelpSection, type HelpTexts, type HelpTopic } from "./content/types";

export interface HelpIndex {
  texts: HelpTexts;
  /** section id → entry id → folded text. */
  folded: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

function entryText(section: HelpSection, entry: HelpEntry): string {
  return foldText([section.title, entry.title, ...entry.paragraphs, ...(entry.items ?? []), ...(entry.links ?? []).map((l) => l.label)].join("\n"));
}

export function buildHelpIndex(texts: HelpTexts): HelpIndex {
  const folded = new Map<string, Map<string, string>>();
  for (const section of texts.sections) {
    folded.set(section.id, new Map(section.entries.map((e) => [e.id, entryText(section, e)])));
  }
  return { texts, folded };
}

/** The query's words, folded ("" → none). A "word" without a letter or a digit ("?", "--", "…")
 * is none: a query of punctuation only is an empty query. */
export function queryWords(query: string): string[] {
  return foldText(query)
    .split(/[\s,.;:¿?¡!«»"“”()]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** The forms of a query word that find it: the word, and for a plural (a word of 4 letters or more
 * ending in -s) its singular: without the -s ("vencidas" → "vencida", "passkeys" → "passkey"), and
 * without -es after n, r, l, d, z or j, the Spanish plurals of words ending in a consonant
 * ("conexiones" → "conexion", "valores" → "valor"; not "frases" → "fras", which would find
 * "cifras"). Matching is by containment, so the singular also finds the plural. */
export function wordForms(word: string): string[] {
  if (word.length < 4 || !word.endsWith("s")) return [word];
  const forms = [word, word.slice(0, -1)];
  if (/[nrldzj]es$/.test(word)) forms.push(word.slice(0, -2));
  return forms;
}

/** The sections with the entries that contain every word of the query; an empty query gives
 * everything. Sections without a matching entry are left out. */
export function searchHelp(index: HelpIndex, query: string): HelpSection[] {
  const words = queryWords(query).map(wordForms);
  if (words.length === 0) return [...index.texts.sections];
  const out: HelpSection[] = [];
  for (const section of index.texts.sections) {
    const texts = index.folded.get(section.id)!;
    const entries = section.entries.filter((e) => {
      const text = texts.get(e.id)!;
      return words.every((forms) => forms.some((w) => text.includes(w)));
    });
    if (entries.length > 0) out.push({ ...section, entries });
  }
  return out;
}

/** A topic of the URL, if it is one of the help's sections. */
export function helpTopic(value: unknown): HelpTopic | undefined {
  return typeof value === "string" && (HELP_TOPICS as readonly string[]).includes(value) ? (value as HelpTopic) : undefined;
}

/** Counts the entries of a search's result. */
export function countEntries(sections: readonly HelpSection[]): number {
  return sections.reduce((n, s) => n + s.entries.length, 0);
}
