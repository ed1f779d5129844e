// Text matching for pickers and lists: accents and case do not matter ("peru" finds "Perú",
// "AREVALO" finds "Arévalo"); ñ is matched as n, which is what people type on a keyboard without it.

/** Lower case without diacritics: "Perú" → "peru", "Ñandú" → "nandu". */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

export interface Searchable {
  label: string;
  /** Other words that find the option (a code: "ES", "EUR"; a former name). */
  keywords?: readonly string[];
}

/**
 * The items matching a query: those whose label starts with it first, then those with a word
 * starting with it, then any other containing it (each group in the given order). An empty
 * query matches everything.
 */
export function filterByText<T extends Searchable>(items: readonly T[], query: string, folded?: readonly string[]): T[] {
  const q = foldText(query.trim());
  if (q === "") return [...items];
  const starts: T[] = [];
  const words: T[] = [];
  const contains: T[] = [];
  items.forEach((item, index) => {
    const label = folded?.[index] ?? foldText(item.label);
    if (label.startsWith(q)) starts.push(item);
    else if (label.includes(` ${q}`) || label.includes(`(${q}`)) words.push(item);
    else if (label.includes(q)) contains.push(item);
    else if (item.keywords?.some((k) => foldText(k).startsWith(q))) words.push(item);
  });
  return [...starts, ...words, ...contains];
}
