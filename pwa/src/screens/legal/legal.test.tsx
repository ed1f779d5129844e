// The legal pages: both languages say the same things in the same order, and the pages open for
// visitors (plain layout) and for signed-in users (app shell).
import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { createFakeServer } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";
import { legalEn } from "./content/en";
import { legalEs } from "./content/es";
import type { LegalDocument, LegalTexts } from "./content/types";

/** The structure of the texts without the words: documents, section ids, paragraph and item counts. */
function outline(texts: LegalTexts) {
  return Object.fromEntries(
    Object.entries(texts).map(([id, doc]: [string, LegalDocument]) => [
      id,
      {
        updated: doc.updated,
        intro: doc.intro.length,
        sections: doc.sections.map((s) => ({ id: s.id, paragraphs: s.paragraphs.length, items: s.items?.length ?? 0 })),
      },
    ]),
  );
}

function allTexts(texts: LegalTexts): string[] {
  return Object.values(texts).flatMap((doc: LegalDocument) => [
    doc.title,
    ...doc.intro,
    ...doc.sections.flatMap((s) => [s.heading, ...s.paragraphs, ...(s.items ?? [])]),
  ]);
}

describe("the legal texts", () => {
  test("Spanish and English have the same documents, sections, paragraphs and lists, in the same order", () => {
    expect(outline(legalEs)).toEqual(outline(legalEn));
  });

  test("section ids are unique within a document", () => {
    for (const doc of [...Object.values(legalEs), ...Object.values(legalEn)] as LegalDocument[]) {
      const ids = doc.sections.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  test("no text is empty, and the Spanish is not a copy of the English", () => {
    const es = allTexts(legalEs);
    const en = allTexts(legalEn);
    expect(es.filter((t) => t.trim() === "")).toEqual([]);
    expect(en.filter((t) => t.trim() === "")).toEqual([]);
    // "Cookies" is the Spanish word too.
    const sameOnPurpose = new Set(["Cookies"]);
    expect(es.filter((t, i) => t === en[i] && !sameOnPurpose.has(t))).toEqual([]);
  });

  test("they cover what a local-first wealth app must tell", () => {
    const privacy = legalEn.privacy.sections.map((s) => s.id);
    expect(privacy).toEqual(expect.arrayContaining(["controller", "device", "server", "cookies", "sharing", "retention", "rights"]));
    const cookies = legalEn.privacy.sections.find((s) => s.id === "cookies");
    expect(cookies?.items).toHaveLength(2);
    expect(cookies?.items?.[0]).toContain("patrimonio_session");
    expect(allTexts(legalEn).join(" ")).toContain("never sold");
    expect(allTexts(legalEs).join(" ")).toContain("nunca se venden");
    const terms = legalEn.terms.sections.map((s) => s.id);
    expect(terms).toEqual(expect.arrayContaining(["billing", "closing", "contact"]));
  });
});

describe("the legal pages", () => {
  test("a visitor reads the terms at /tos in the plain layout, linked to the privacy policy", async () => {
    await renderApp("/tos", "es", createFakeServer({ me: null }));
    expect(await screen.findByRole("heading", { name: "Condiciones de uso", level: 1 })).toBeTruthy();
    expect(screen.getByTestId("public-layout")).toBeTruthy();
    expect(screen.queryByTestId("sidebar-title")).toBeNull();
    expect(screen.getByRole("heading", { name: "Suscripción y pagos", level: 2 })).toBeTruthy();
    expect(screen.getByText("Última actualización: 24 de noviembre de 2026")).toBeTruthy();
    await waitFor(() => expect(document.title).toBe("Condiciones de uso · Patrimonio"));
    const footer = screen.getByRole("navigation", { name: "Información legal" });
    expect(footer.querySelector('a[href="/privacy"]')?.textContent).toBe("Privacidad");
  });

  test("a signed-in user reads the privacy policy inside the app shell, and it follows the language", async () => {
    const { i18n } = await renderApp("/privacy/", "es");
    expect(await screen.findByRole("heading", { name: "Política de privacidad", level: 1 })).toBeTruthy();
    expect(await screen.findByTestId("sidebar-title")).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage("en");
    });
    expect(screen.getByRole("heading", { name: "Privacy policy", level: 1 })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Cookies", level: 2 })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe("Privacy policy · Patrimonio"));
  });
});
