// The help texts: both languages have the same sections and entries in the same order (the
// translation parity of the help, which lives in content modules instead of the locale files), the
// sync statuses are named exactly as the top bar shows them, and the search ignores accents and case.
import { createRouter } from "@tanstack/react-router";
import { describe, expect, test } from "vitest";
import en from "../../i18n/locales/en.json";
import es from "../../i18n/locales/es.json";
import { helpEn } from "./content/en";
import { helpEs } from "./content/es";
import { routeTree } from "../../router/router";
import { HELP_LINK_TARGETS, HELP_TOPICS, type HelpTexts } from "./content/types";
import { buildHelpIndex, countEntries, helpTopic, queryWords, searchHelp, wordForms } from "./helpSearch";

/** The structure without the words: section ids, entry ids, paragraph and item counts. */
function outline(texts: HelpTexts) {
  return texts.sections.map((s) => ({
    id: s.id,
    entries: s.entries.map((e) => ({
      id: e.id,
      paragraphs: e.paragraphs.length,
      items: e.items?.length ?? 0,
      links: (e.links ?? []).map((l) => ({ to: l.to, search: l.search })),
    })),
  }));
}

function allText(texts: HelpTexts): string {
  return texts.sections.flatMap((s) => [s.title, s.summary, ...s.entries.flatMap((e) => [e.title, ...e.paragraphs, ...(e.items ?? [])])]).join("\n");
}

describe("help texts", () => {
  test("Spanish and English have the same sections and entries, in the topics' order", () => {
    expect(outline(helpEn)).toEqual(outline(helpEs));
    expect(helpEs.sections.map((s) => s.id)).toEqual([...HELP_TOPICS]);
    for (const texts of [helpEs, helpEn]) {
      for (const s of texts.sections) {
        expect(new Set(s.entries.map((e) => e.id)).size, s.id).toBe(s.entries.length);
        for (const text of [s.title, s.summary, ...s.entries.flatMap((e) => [e.title, ...e.paragraphs, ...(e.items ?? [])])]) {
          expect(text.trim(), s.id).not.toBe("");
        }
      }
    }
    // Not a copy: the two languages differ.
    expect(allText(helpEs)).not.toBe(allText(helpEn));
  });

  test("every sync status and stop notice of the top bar is explained under its own words", () => {
    for (const [texts, locale] of [
      [helpEs, es],
      [helpEn, en],
    ] as const) {
      const sync = texts.sections.find((s) => s.id === "sync")!;
      const titles = sync.entries.map((e) => e.title);
      const body = allText({ sections: [sync] });
      for (const label of Object.values(locale.sync.state)) expect(titles, label).toContain(label);
      for (const key of ["pending_other", "rejected_other", "conflicts_other"] as const) {
        const label = locale.sync[key].replace("{{count}}", "N");
        expect(titles, label).toContain(label);
      }
      expect(body).toContain(locale.sync.snapshot_other.replace("{{count}}", "N"));
      for (const notice of Object.values(locale.sync.error)) expect(body, notice).toContain(notice);
      expect(body).toContain(locale.sync.openFailed);
    }
  });

  test("the vault's key rotation is explained under the button's own name, with what the old passphrase can still read", () => {
    for (const [texts, locale, still] of [
      [helpEs, es, "lo que ya estaba guardado antes"],
      [helpEn, en, "what was already saved before"],
    ] as const) {
      const entry = texts.sections.find((s) => s.id === "security")!.entries.find((e) => e.id === "vault-rotate")!;
      const body = [entry.title, ...entry.paragraphs].join("\n");
      expect(body).toContain(locale.vault.rotate.open);
      expect(body).toContain(still);
      expect(entry.links?.map((l) => l.to)).toEqual(["/logins"]);
    }
  });
});

describe("help links", () => {
  test("the entries link to the screens they talk about, each a screen of the app", () => {
    // Only its route matching is used: no context is needed.
    const router = createRouter({ routeTree, context: {} as never });
    for (const to of HELP_LINK_TARGETS) {
      const [, , found] = router.getMatchedRoutes(to);
      expect(found?.path, to).not.toBeUndefined();
      expect(found?.fullPath.replace(/(.)\/$/, "$1"), to).toBe(to);
    }
    const linked = (texts: HelpTexts, section: string, entry: string) =>
      texts.sections.find((s) => s.id === section)!.entries.find((e) => e.id === entry)!.links?.map((l) => [l.to, l.search ?? {}]);
    for (const texts of [helpEs, helpEn]) {
      expect(linked(texts, "security", "vault")).toEqual([["/logins", {}]]);
      expect(linked(texts, "binder", "how")).toEqual([["/beneficiaries/binder", {}]]);
      expect(linked(texts, "faq", "overdue")).toEqual([["/tasks", { overdue: 1 }]]);
      expect(linked(texts, "faq", "export")).toEqual([["/assets", {}], ["/profile", {}]]);
      expect(linked(texts, "faq", "missing-rate")).toEqual([["/", {}]]);
      for (const s of texts.sections) for (const e of s.entries) for (const l of e.links ?? []) expect(l.label.trim(), `${s.id}.${e.id}`).not.toBe("");
    }
  });
});

describe("help search", () => {
  const es = buildHelpIndex(helpEs);
  const en = buildHelpIndex(helpEn);

  test("an empty query shows everything", () => {
    expect(searchHelp(es, "  ")).toEqual(helpEs.sections);
    expect(countEntries(searchHelp(es, ""))).toBe(helpEs.sections.reduce((n, s) => n + s.entries.length, 0));
  });

  test("a query of punctuation only is an empty query; punctuation beside a word is dropped", () => {
    for (const q of ["?", "¿?!", "--", "…", " - / # "]) {
      expect(queryWords(q), q).toEqual([]);
      expect(searchHelp(es, q), q).toEqual(helpEs.sections);
    }
    expect(queryWords("correo - cambiar")).toEqual(["correo", "cambiar"]);
    expect(queryWords("e-mail")).toEqual(["e-mail"]);
  });

  test("accents and case do not matter", () => {
    const plain = searchHelp(es, "SIN CONEXION");
    const accented = searchHelp(es, "sin conexión");
    expect(countEntries(plain)).toBeGreaterThan(0);
    expect(plain).toEqual(accented);
    // "albacea" only in the binder section's title and texts; "cuaderno del albacea" also in "start".
    expect(searchHelp(es, "frase de paso").map((s) => s.id)).toContain("security");
    const passkeys = searchHelp(es, "llave de acceso huella");
    expect(passkeys.map((s) => [s.id, s.entries.map((e) => e.id)])).toEqual([["security", ["passkeys"]]]);
    expect(searchHelp(es, "Llave De Acceso HUELLA")).toEqual(passkeys);
    // "deposito" (no accent) finds the "depósito" of the flows' entry, as "DEPÓSITO" does.
    const deposit = searchHelp(es, "deposito proyeccion");
    expect(deposit.map((s) => [s.id, s.entries.map((e) => e.id)])).toEqual([["faq", ["flows"]]]);
    expect(searchHelp(es, "DEPÓSITO Proyección")).toEqual(deposit);
    expect(searchHelp(en, "PASSKEY fingerprint").map((s) => [s.id, s.entries.map((e) => e.id)])).toEqual([["security", ["passkeys"]]]);
  });

  test("every word must match, in any entry field, and a result keeps only the matching entries", () => {
    const conflicts = searchHelp(es, "restaurar conflicto");
    expect(conflicts.map((s) => s.id)).toEqual(["sync"]);
    expect(conflicts[0]!.entries.map((e) => e.id)).toEqual(["conflicts"]);
    // A word of the section title counts for its entries: "seguridad" + a word of one entry.
    expect(searchHelp(es, "seguridad huella")[0]!.entries.map((e) => e.id)).toEqual(["passkeys"]);
    expect(searchHelp(es, "conflicto zzzz")).toEqual([]);
    expect(queryWords("¿Qué es «albacea»?")).toEqual(["que", "es", "albacea"]);
  });

  test("a plural finds the singular, and a link's text counts", () => {
    // The texts say "frase de paso" and "huella", "passphrase" and "fingerprint": asked in the plural,
    // they are still found.
    const entriesOf = (sections: ReturnType<typeof searchHelp>) => sections.flatMap((s) => s.entries.map((e) => `${s.id}.${e.id}`));
    expect(entriesOf(searchHelp(es, "frases de paso"))).toEqual(entriesOf(searchHelp(es, "frase de paso")));
    expect(entriesOf(searchHelp(es, "frases de paso"))).toContain("security.vault");
    expect(entriesOf(searchHelp(es, "huellas"))).toEqual(["security.passkeys"]);
    expect(entriesOf(searchHelp(en, "fingerprints"))).toEqual(["security.passkeys"]);
    expect(entriesOf(searchHelp(es, "tareas vencidas"))).toEqual(["faq.overdue"]);
    expect(wordForms("conexiones")).toEqual(["conexiones", "conexione", "conexion"]);
    expect(wordForms("frases")).toEqual(["frases", "frase"]);
    expect(wordForms("mis")).toEqual(["mis"]);
    // "Política de privacidad" is only the text of a link.
    expect(entriesOf(searchHelp(es, "politica privacidad"))).toEqual(["faq.where-data"]);
  });

  test("topics of the URL are the sections' ids, anything else is none", () => {
    expect(helpTopic("sync")).toBe("sync");
    expect(helpTopic("faq")).toBe("faq");
    expect(helpTopic("nope")).toBeUndefined();
    expect(helpTopic(3)).toBeUndefined();
  });
});
