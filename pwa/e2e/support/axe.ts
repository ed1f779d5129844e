import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** The WCAG rule sets the accessibility check runs (issue 8: WCAG 2.1 A and AA). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

/** Impacts that fail a check; "minor" and "moderate" findings are not reported. */
const FAILING_IMPACTS = new Set(["serious", "critical"]);

/**
 * Runs axe-core on the page as it is now and fails, with a readable list, when any serious or critical
 * violation is found: one line per rule (id, impact, help, link) and the selectors of every offending
 * node. `label` names the screen and variant in the message ("sign-in · dark · phone").
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  // Legacy mode runs axe.run() in the page itself. The default mode runs axe per frame and then
  // opens a blank page in the context to merge the frames' results (axe.finishRun), which doubled
  // the cost of every check (about 0.8 s against 0.4 s a check on CI's two cores; the e2e suite
  // runs some 300 of them). The app has no iframes, so nothing is left unchecked by running in
  // the page (README.md, "The two commands").
  const results = await new AxeBuilder({ page }).withTags([...AXE_TAGS]).setLegacyMode(true).analyze();
  const serious = results.violations.filter((v) => v.impact != null && FAILING_IMPACTS.has(v.impact));
  const report = serious.map((v) => {
    const nodes = v.nodes.map((n) => {
      const target = n.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))).join(" | ");
      const why = n.failureSummary ? `\n        ${n.failureSummary.replace(/\n/g, "\n        ")}` : "";
      return `    - ${target}${why}`;
    });
    return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes.join("\n")}`;
  });
  expect(
    serious.map((v) => v.id),
    `${label}: ${serious.length} serious or critical axe violation(s) at ${page.url()}\n${report.join("\n")}`,
  ).toEqual([]);
  await expectNoSidewaysScroll(page, label);
}

/**
 * WCAG 1.4.10 (Reflow), which axe does not check: the page never needs scrolling sideways, and nothing
 * is cut off at the window's edge. Three things fail it, each named in the message:
 * - the document scrolls sideways;
 * - a box scrolls sideways (the shell's main area, a dialog, a tab list, …), except a wide table's own
 *   box: a `ui/ScrollRegion` that does scroll (`data-scrolls`) or `ui/DataTable`'s viewport (a named,
 *   focusable region the keyboard scrolls);
 * - an element reaches past the window's left or right edge (a fixed dialog, a drawer, a top bar whose
 *   body clips it) and no box of its own scrolls or ends it with an ellipsis. Hidden elements (the
 *   closed drawer) and visually hidden text do not count.
 */
export async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const found = await page.evaluate(() => {
    const out: string[] = [];
    const describe = (e: Element) => {
      const text = (e.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 50);
      return `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}">: "${text}"`;
    };
    const vw = document.documentElement.clientWidth;
    const scrolls = (e: Element) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
    // A wide table's own box: a ScrollRegion that scrolls, or a data table's named, focusable viewport.
    const ownScroller = (e: Element) => e.hasAttribute("data-scrolls") || e.matches('[role="region"][tabindex]');
    const visible = (e: Element, r: DOMRect) => r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden";
    /** The innermost elements under `root` that reach past [left, right], unless a box of their own
     * (that fits) scrolls or ends the line with an ellipsis. */
    const sticking = (root: Element, left: number, right: number) => {
      const outside = (r: DOMRect) => r.right > right + 1 || r.left < left - 1;
      const result: string[] = [];
      for (const e of Array.from(root.querySelectorAll("*"))) {
        const r = e.getBoundingClientRect();
        if (!visible(e, r) || !outside(r)) continue;
        if (Array.from(e.children).some((c) => { const cr = c.getBoundingClientRect(); return visible(c, cr) && outside(cr); })) continue;
        let boxed = false;
        for (let a = e.parentElement; a !== null && a !== root && a !== document.body; a = a.parentElement) {
          const style = getComputedStyle(a);
          if (style.overflowX === "visible") continue;
          if (!outside(a.getBoundingClientRect()) && (scrolls(a) || style.textOverflow === "ellipsis")) {
            boxed = true;
            break;
          }
        }
        if (!boxed) result.push(`  reaches ${Math.round(r.left)}..${Math.round(r.right)}px of ${Math.round(left)}..${Math.round(right)}px: ${describe(e)}`);
      }
      return result;
    };
    // The document scrolls sideways when the window can (the body may clip what sticks out).
    const [x, y] = [window.scrollX, window.scrollY];
    window.scrollTo(1_000_000, y);
    if (window.scrollX > 0) out.push(`document: scrolls ${window.scrollX}px sideways`);
    window.scrollTo(x, y);
    for (const e of Array.from(document.querySelectorAll("body *"))) {
      if (e.scrollWidth > e.clientWidth + 1 && scrolls(e) && !ownScroller(e) && getComputedStyle(e).visibility !== "hidden") {
        out.push(`scrolls sideways, ${e.scrollWidth}px of content in ${e.clientWidth}px: ${describe(e)}`);
        const r = e.getBoundingClientRect();
        out.push(...sticking(e, r.left + e.clientLeft, r.left + e.clientLeft + e.clientWidth).slice(0, 4));
      }
    }
    out.push(...sticking(document.body, 0, vw));
    return out.slice(0, 12);
  });
  expect(found, `${label}: the page scrolls sideways or is cut off at ${page.url()}\n${found.join("\n")}`).toEqual([]);
}

/**
 * A name is shown whole where it is the information (which asset, which workspace): some element
 * under `scope` draws all of `text` (not only an <option> of a select, which draws one cut line),
 * and neither it nor a box around it cuts it (an ellipsis, a clipping box narrower than its content),
 * nor does it reach past the window's edge unless a box of its own scrolls sideways to it (a wide
 * table's). The reflow check lets an ellipsis pass; this does not.
 */
export async function expectShownWhole(scope: Locator, text: string, label: string): Promise<void> {
  const problem = await scope.evaluate((root, text) => {
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden" && getComputedStyle(e).opacity !== "0" && e.closest(".visually-hidden") === null;
    };
    const holders = Array.from(root.querySelectorAll("*")).filter(
      (e) => e.tagName !== "OPTION" && e.tagName !== "SELECT" && (e.textContent ?? "").includes(text) && !Array.from(e.children).some((c) => (c.textContent ?? "").includes(text)),
    );
    const drawn = holders.filter(shown);
    if (drawn.length === 0) {
      const inOption = Array.from(root.querySelectorAll("option")).some((o) => (o.textContent ?? "").includes(text));
      return `"${text}" is drawn by no element${inOption ? " (only a select's option holds it: the select draws one line, cut)" : holders.length > 0 ? " (the elements that hold it are hidden)" : ""}`;
    }
    const cuts: string[] = [];
    for (const e of drawn) {
      const before = cuts.length;
      // Up to the first box that scrolls sideways (a wide table's own, which shows all of it when
      // scrolled): nothing may clip it, and without such a box it must lie within the window.
      let scroller = false;
      for (let a: Element | null = e; a !== null && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (["auto", "scroll"].includes(style.overflowX)) {
          scroller = true;
          break;
        }
        if (style.overflowX !== "visible" && a.scrollWidth > a.clientWidth + 1) {
          cuts.push(`cut by <${a.tagName.toLowerCase()} class="${a.getAttribute("class") ?? ""}">: ${a.clientWidth}px of ${a.scrollWidth}px${style.textOverflow === "ellipsis" ? " with an ellipsis" : ""}`);
          break;
        }
      }
      const r = e.getBoundingClientRect();
      if (cuts.length === before && !scroller && (r.left < -1 || r.right > document.documentElement.clientWidth + 1)) cuts.push(`reaches ${Math.round(r.left)}..${Math.round(r.right)}px`);
      if (cuts.length === before) return null;
    }
    return `"${text}" is cut: ${cuts.join("; ")}`;
  }, text);
  expect(problem, `${label}: ${problem}`).toBeNull();
}

export type A11yTheme = "light" | "dark";
export type A11yViewport = "desktop" | "phone";

export interface A11yVariant {
  theme: A11yTheme;
  viewport: A11yViewport;
  size: { width: number; height: number };
  /** "light · desktop", "dark · phone", … for messages and screenshot names. */
  label: string;
}

/**
 * The phone is 320 CSS px wide, the narrowest width WCAG 2.1 SC 1.4.10 (Reflow) asks content to work
 * at without sideways scrolling (a 1280 px window zoomed to 400 %, or the smallest phones). A screen
 * that reflows at 320 reflows on every wider phone too, so checking 390 (a common phone) proved less.
 */
export const VIEWPORT_SIZES: Record<A11yViewport, { width: number; height: number }> = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 320, height: 640 },
};

/** The four variants every screen is checked in: light and dark, desktop 1280×800 and phone 320×640. */
export const A11Y_VARIANTS: readonly A11yVariant[] = (["light", "dark"] as const).flatMap((theme) =>
  (["desktop", "phone"] as const).map((viewport) => ({
    theme,
    viewport,
    size: VIEWPORT_SIZES[viewport],
    label: `${theme} · ${viewport}`,
  })),
);

const THEME_KEY = "patrimonio.theme";
const pagesWithThemeScript = new WeakSet<Page>();

/**
 * Puts the page in a variant: viewport size, prefers-color-scheme and reduced motion (no half-faded
 * colours under axe). The theme itself is the stored preference public/theme-init.js applies before
 * first paint: an init script writes "light" or "dark" into localStorage["patrimonio.theme"] from the
 * emulated colour scheme on every navigation, so the NEXT navigation (goto or reload) shows the variant.
 * When the page already shows an app page, its stored theme is set too.
 */
export async function applyA11yVariant(page: Page, variant: A11yVariant): Promise<void> {
  if (!pagesWithThemeScript.has(page)) {
    pagesWithThemeScript.add(page);
    await page.addInitScript((key: string) => {
      try {
        const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
        window.localStorage.setItem(key, dark ? "dark" : "light");
      } catch {
        // about:blank and other opaque origins have no storage.
      }
    }, THEME_KEY);
  }
  await page.emulateMedia({ colorScheme: variant.theme, reducedMotion: "reduce" });
  await page.setViewportSize(variant.size);
  if (/^https?:/.test(page.url())) {
    await page.evaluate(({ key, theme }) => window.localStorage.setItem(key, theme), {
      key: THEME_KEY,
      theme: variant.theme,
    });
  }
}

/** Waits until <html data-theme> shows the variant's theme (theme-init.js and ThemeProvider ran). */
export async function expectVariantApplied(page: Page, variant: A11yVariant): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-theme", variant.theme);
}

/**
 * Runs `check` once per variant (light/dark × desktop/phone), after putting the page in it. The callback
 * navigates (page.goto or page.reload) so theme-init.js applies the theme, then checks the page, e.g.
 *
 *   await forEachA11yVariant(page, async (v) => {
 *     await page.goto("/sign-in/");
 *     await expectVariantApplied(page, v);
 *     await expectNoSeriousA11yViolations(page, `sign-in · ${v.label}`);
 *   });
 */
export async function forEachA11yVariant(
  page: Page,
  check: (variant: A11yVariant) => Promise<void>,
): Promise<void> {
  for (const variant of A11Y_VARIANTS) {
    await applyA11yVariant(page, variant);
    await check(variant);
  }
}

/**
 * The common case: for each variant, open `path`, wait for `ready` (a locator that shows the screen
 * is drawn), check the theme applied and run axe. Returns nothing; fails on the first variant with a
 * serious or critical violation.
 */
export async function expectPageAccessibleInAllVariants(
  page: Page,
  path: string,
  label: string,
  ready: (page: Page) => Promise<void>,
): Promise<void> {
  await forEachA11yVariant(page, async (variant) => {
    await page.goto(path);
    await ready(page);
    await expectVariantApplied(page, variant);
    await expectNoSeriousA11yViolations(page, `${label} · ${variant.label}`);
  });
}
