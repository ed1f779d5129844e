// Validation messages and enum labels, Spanish and English (messages/es.json, messages/en.json).
// Keys are dotted paths into those files ("validation.required", "labels.assetClass.real_estate"),
// the same keys i18next resolves when the files are loaded as a namespace, and the same keys the Go
// side resolves by the request's Accept-Language.
import en from "../messages/en.json";
import es from "../messages/es.json";
import type { IssueParams } from "./issues";

export const LANGUAGES = ["es", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spanish first: the app locale is es-ES. */
export const DEFAULT_LANGUAGE: Language = "es";

export type MessageTree = { [key: string]: string | MessageTree };
export const MESSAGES: Record<Language, MessageTree> = { es, en };

/** The raw message (with {{placeholders}}) for a key, or undefined. */
export function messageTemplate(language: Language, key: string): string | undefined {
  let node: string | MessageTree | undefined = MESSAGES[language];
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Resolve a key in a language and fill {{params}}, i18next-style. Unknown keys come back as the key. */
export function translate(language: Language, key: string, params: IssueParams = {}): string {
  const template = messageTemplate(language, key);
  if (template === undefined) return key;
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** Every leaf key of a message tree, dotted. */
export function messageKeys(tree: MessageTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === "string" ? [prefix + k] : messageKeys(v, `${prefix}${k}.`)));
}
