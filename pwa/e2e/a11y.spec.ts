// Accessibility: every existing screen, in light and dark, on a desktop (1280×800) and a phone
// (320×640, the width WCAG 1.4.10 reflow asks for), has no serious or critical axe-core violation (WCAG 2.1 A and AA). A screenshot of each
// screen and variant is written under test-results/ for people to look at (not compared).
import type { Page, TestInfo } from "@playwright/test";
import { adminAccount, createOnboardedAccount, storageStateFor } from "./support/accounts";
import {
  A11Y_VARIANTS,
  VIEWPORT_SIZES,
  applyA11yVariant,
  expectNoSeriousA11yViolations,
  expectNoSidewaysScroll,
  expectShownWhole,
  expectVariantApplied,
  forEachA11yVariant,
  type A11yVariant,
} from "./support/axe";
import { expect, test, visitorTest } from "./support/fixtures";
import { ImportPage } from "./support/import-page";
import { seedRecords } from "./support/seed";
import { accountAt, contextWith } from "./support/onboarding";

/** Waits until a screen has drawn its heading (its lazy code loaded, its data asked). */
async function screenReady(page: Page): Promise<void> {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByTestId("route-pending")).toHaveCount(0);
}

/** Onboarding screens: also the (lazily loaded) user menu of the plain layout. */
async function onboardingReady(page: Page): Promise<void> {
  await screenReady(page);
  await expect(page.getByTestId("user-menu-button")).toBeVisible();
}

async function checkScreen(page: Page, testInfo: TestInfo, name: string, path: string, ready: (page: Page) => Promise<void> = screenReady) {
  await forEachA11yVariant(page, async (variant: A11yVariant) => {
    await page.goto(path);
    await ready(page);
    await expectVariantApplied(page, variant);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${variant.theme}-${variant.viewport}.png`), fullPage: false });
    await expectNoSeriousA11yViolations(page, `${name} (${path}) · ${variant.label}`);
  });
}

// ---------- The check itself ----------

visitorTest("the check fails, naming each rule, on a page with serious violations", async ({ page }) => {
  await page.setContent(
    `<!doctype html><html lang="es"><head><title>t</title></head><body><main>
       <h1>Prueba</h1>
       <p style="color:#bbb;background:#fff">Texto con poco contraste</p>
       <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
       <input type="text">
     </main></body></html>`,
  );
  const failure = await expectNoSeriousA11yViolations(page, "a bad page").then(
    () => null,
    (error: unknown) => String(error),
  );
  expect(failure).not.toBeNull();
  for (const rule of ["color-contrast", "image-alt", "label"]) expect(failure).toContain(rule);
});

visitorTest("the reflow check fails at 320 px on what scrolls sideways or is cut off, not on a wide table's own box", async ({ page }) => {
  await page.setViewportSize(VIEWPORT_SIZES.phone);
  const check = (body: string) =>
    page
      .setContent(`<!doctype html><html lang="es"><head><title>t</title></head><body style="margin:0;overflow:hidden">${body}</body></html>`)
      .then(() => expectNoSidewaysScroll(page, "a page"))
      .then(
        () => null,
        (error: unknown) => String(error),
      );
  // A wide table in a box of its own (a ScrollRegion that scrolls, a data table's focusable region),
  // a cut line with an ellipsis and visually hidden text pass.
  expect(
    await check(`<main><div data-scrolls style="overflow-x:auto"><table><tr><td style="min-width:900px">ancha</td></tr></table></div>
      <div role="region" tabindex="0" aria-label="t" style="overflow:auto;height:80px"><div style="width:900px">ancha</div></div>
      <p style="overflow:hidden;text-overflow:ellipsis;white-space:nowrap">${"palabra ".repeat(40)}</p>
      <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">oculto</span></main>`),
  ).toBeNull();
  // The document wider than the window.
  expect(await check(`<main><div style="width:400px">Demasiado ancho</div></main>`)).toContain("Demasiado ancho");
  // A tab list (any box but a wide table's own) that scrolls sideways.
  expect(await check(`<main><div role="tablist" style="display:flex;overflow-x:auto"><span style="flex:none;width:400px">Pestañas</span></div></main>`)).toContain("scrolls sideways, 400px of content in 320px");
  // A fixed dialog wider than the window: it never widens the document, it is cut off.
  expect(await check(`<main></main><div role="dialog" style="position:fixed;top:0;left:0;width:360px">Diálogo ancho</div>`)).toContain("Diálogo ancho");
  // A bar whose button the (overflow: hidden) body cuts off.
  expect(await check(`<header style="display:flex"><span style="flex:none;width:300px">Barra</span><button style="flex:none;width:60px">Menú</button></header>`)).toContain("Menú");
});

// ---------- Signed out ----------

visitorTest.describe("accessibility, signed out", () => {
  // Four variants, each a page load and an axe run: three times the usual time.
  visitorTest.slow();

  visitorTest("sign-in", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "signin", "/signin");
  });

  visitorTest("sign-up", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "signup", "/signup");
  });

  visitorTest("terms of service", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "tos-visitor", "/tos/");
  });

  visitorTest("privacy policy", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "privacy-visitor", "/privacy/");
  });

  visitorTest("not found", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "not-found-visitor", "/no-existe");
  });

  visitorTest("forgotten password, and a reset link that is not valid", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "password-forgot", "/password/forgot");
    await checkScreen(page, testInfo, "password-reset", "/password/reset?token=caducado");
  });
});

// ---------- E-mail verification and onboarding ----------

test.describe("accessibility, e-mail verification and onboarding", () => {
  test.slow();

  test("verify e-mail", async ({ browser, baseURL }, testInfo) => {
    const { token, path } = await accountAt(baseURL!, "verify_email");
    const context = await contextWith(browser, baseURL!, token);
    await checkScreen(await context.newPage(), testInfo, "verify-email", path);
    await context.close();
  });

  test("onboarding intro", async ({ browser, baseURL }, testInfo) => {
    const { token } = await accountAt(baseURL!, "security_totp");
    const context = await contextWith(browser, baseURL!, token);
    await checkScreen(await context.newPage(), testInfo, "onboarding-intro", "/onboarding", onboardingReady);
    await context.close();
  });

  test("onboarding authenticator step", async ({ browser, baseURL }, testInfo) => {
    const { token, path } = await accountAt(baseURL!, "security_totp");
    const context = await contextWith(browser, baseURL!, token);
    const page = await context.newPage();
    await checkScreen(page, testInfo, "onboarding-2fa", path, async (p) => {
      await onboardingReady(p);
      await expect(p.getByRole("img").first()).toBeVisible(); // the QR code
    });
    await context.close();
  });

  test("onboarding passkey step", async ({ browser, baseURL }, testInfo) => {
    const { token, path } = await accountAt(baseURL!, "security_passkey");
    const context = await contextWith(browser, baseURL!, token);
    await checkScreen(await context.newPage(), testInfo, "onboarding-passkey", path, onboardingReady);
    await context.close();
  });

  test("onboarding personal information step", async ({ browser, baseURL }, testInfo) => {
    const { token, path } = await accountAt(baseURL!, "personal_info");
    const context = await contextWith(browser, baseURL!, token);
    await checkScreen(await context.newPage(), testInfo, "onboarding-personal-info", path, onboardingReady);
    await context.close();
  });
});

// ---------- Signed in ----------

test.describe("accessibility, signed in", () => {
  test.slow();

  test("dashboard", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "dashboard", "/", async (p) => {
      await screenReady(p);
      await expect(p.getByTestId("dashboard-empty")).toBeVisible();
    });
  });

  test("dashboard with the user menu open and, on a phone, the sidebar drawer open", async ({ page }, testInfo) => {
    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/");
      await screenReady(page);
      await expectVariantApplied(page, variant);
      await page.getByTestId("user-menu-button").click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectNoSeriousA11yViolations(page, `user menu · ${variant.label}`);
      await page.keyboard.press("Escape");
      if (variant.viewport === "phone") {
        await page.getByRole("button", { name: "Abrir menú" }).click();
        await expect(page.getByTestId("sidebar-title")).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`drawer-${variant.theme}.png`) });
        await expectNoSeriousA11yViolations(page, `sidebar drawer · ${variant.label}`);
      }
    });
  });

  test("profile", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "profile", "/profile/");
  });

  test("workspaces", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "workspaces", "/workspaces");
  });

  test("a workspace", async ({ page }, testInfo) => {
    const me = (await (await page.request.get("/api/v1/me")).json()) as { workspaces: { id: string }[] };
    const id = me.workspaces[0]?.id;
    expect(id).toBeTruthy();
    await checkScreen(page, testInfo, "workspace", `/workspaces/${id}`);
  });

  test("connect an account (no provider configured here)", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "connect", "/connect?kind=bank", async (p) => {
      await expect(p.getByTestId("connect-not-configured")).toBeVisible();
    });
  });

  test("the return from a bank with no link to finish", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "connect-return", "/connect/return");
  });

  test("add dialogs, the new-asset steps, a toast and the vault before it exists", async ({ browser, baseURL }, testInfo) => {
    // A user of its own: the tasks created here must not show on the global user's screens.
    const account = await createOnboardedAccount(baseURL!, `a11y-dialogs-${Date.now()}@example.com`, "lengthy e2e a11y passphrase 5120");
    const context = await browser.newContext({ baseURL, locale: "es-ES", timezoneId: "Europe/Madrid", storageState: storageStateFor(baseURL!, account) });
    const page = await context.newPage();
    const dialog = page.getByRole("dialog");
    try {
      await forEachA11yVariant(page, async (variant) => {
        const check = async (name: string) => {
          await page.screenshot({ path: testInfo.outputPath(`${name.replace(/[^a-z]+/g, "-")}-${variant.theme}-${variant.viewport}.png`) });
          await expectNoSeriousA11yViolations(page, `${name} · ${variant.label}`);
        };
        // Dialogs the address opens.
        for (const [name, path] of [
          ["new debt", "/liabilities?new=1"],
          ["new flow", "/flows?new=1"],
          ["new team workspace", "/workspaces?create=true"],
        ] as const) {
          await page.goto(path);
          await expect(dialog).toBeVisible();
          await expectVariantApplied(page, variant);
          await check(name);
        }
        // Dialogs a button opens.
        for (const [name, path, button] of [
          ["new beneficiary", "/beneficiaries", "add-beneficiary"],
          ["new instruction", "/beneficiaries?tab=instructions", "add-instruction"],
          ["new task", "/tasks", "task-new"],
        ] as const) {
          await page.goto(path);
          await screenReady(page);
          await page.getByTestId(button).click();
          await expect(dialog).toBeVisible();
          await check(name);
        }
        // The task saved: the toast that says so.
        await page.getByTestId("task-title").fill(`Revisar el seguro (${variant.label})`);
        await page.getByTestId("task-submit").click();
        const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Tarea creada" });
        await expect(toast).toBeVisible();
        await expect(toast).toHaveCSS("opacity", "1");
        await check("toast");
        // The new asset's three steps: category, the way to add it, the form.
        await page.goto("/assets/new");
        const picker = page.getByTestId("category-picker");
        await expect(picker).toBeVisible();
        await check("new asset, category");
        await picker.getByTestId("class-bank_accounts").locator('[data-category-code="savings_account"]').click();
        await expect(page.getByTestId("method-manual")).toBeVisible();
        await check("new asset, method");
        await page.getByTestId("method-manual").click();
        await expect(page.getByTestId("asset-form")).toBeVisible();
        await check("new asset, form");
        // The logins screen before anyone has made the vault: the form that makes it.
        await page.goto("/logins");
        await screenReady(page);
        await check("logins, no vault yet");
      });
    } finally {
      await context.close();
    }
  });

  test("on a 320 px phone, long names are shown whole (asset list, an asset's structure, debts, flows, a beneficiary's allocation, the top bar's workspace) and the dialogs that show them do not scroll sideways", async ({ browser, baseURL }, testInfo) => {
    const asset = "Apartamento en la playa de Sanlúcar de Barrameda con plaza de garaje y trastero";
    const debt = "Hipoteca del apartamento de Sanlúcar de Barrameda con el Banco Sabadell";
    const flow = "Alquiler de temporada del apartamento de Sanlúcar de Barrameda";
    const workspace = "Patrimonio compartido de la familia Fernández de Córdoba y Villalobos";
    const heir = "María de los Ángeles Fernández de Córdoba";
    const holding = "Sociedad Patrimonial Fernández de Córdoba y Villalobos SL";
    const account = await createOnboardedAccount(baseURL!, `a11y-names-${Date.now()}@example.com`, "lengthy e2e a11y passphrase 5120");
    await seedRecords(baseURL!, account, [
      { collection: "legalStructures", key: "holding", fields: { name: holding, structureType: "holding_company", country: "ES" } },
      { collection: "assets", key: "flat", fields: { name: asset, assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "350000", legalStructureId: "$ref:holding" } },
      { collection: "liabilities", fields: { name: debt, kind: "mortgage", amountOutstanding: "120000", currency: "EUR", assetId: "$ref:flat" } },
      { collection: "cashFlows", fields: { name: flow, direction: "inflow", amount: "1200", currency: "EUR", frequency: "monthly", startDate: "2025-01-01", assetId: "$ref:flat" } },
      { collection: "beneficiaries", fields: { name: heir, relationship: "child", allocations: [{ assetId: "$ref:flat", percentage: "50" }] } },
    ]);
    const context = await browser.newContext({ baseURL, locale: "es-ES", timezoneId: "Europe/Madrid", storageState: storageStateFor(baseURL!, account) });
    const page = await context.newPage();
    const created = await page.request.post("/api/v1/workspaces", { data: { name: workspace }, headers: { Origin: baseURL! } });
    expect(created.ok()).toBe(true);
    const teamId = ((await created.json()) as { workspace: { id: string } }).workspace.id;
    const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog"));
    try {
      for (const variant of A11Y_VARIANTS.filter((v) => v.viewport === "phone")) {
        await applyA11yVariant(page, variant);
        const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`names-${name}-${variant.theme}.png`) });

        // The asset list: the name wraps onto more lines instead of ending in "Apartamento en…".
        await page.goto("/assets/");
        await expectVariantApplied(page, variant);
        const table = page.getByTestId("asset-table");
        await expect(table.getByRole("link", { name: asset, exact: true })).toBeVisible();
        await expectShownWhole(table, asset, `asset list · ${variant.label}`);
        await shot("assets");
        await expectNoSeriousA11yViolations(page, `asset list with a long name · ${variant.label}`);
        // Its delete dialog names it whole.
        await table.getByRole("link", { name: asset, exact: true }).click();
        await page.getByTestId("section-delete").getByRole("button", { name: "Eliminar activo…" }).click();
        await expect(dialog).toBeVisible();
        await expectShownWhole(dialog, asset, `asset delete dialog · ${variant.label}`);
        await expectNoSeriousA11yViolations(page, `asset delete dialog · ${variant.label}`);
        await page.keyboard.press("Escape");
        await expect(dialog).toHaveCount(0);
        // Its settings: the legal structure that holds it, named whole over the native select.
        await page.getByRole("tab", { name: "Ajustes" }).click();
        const structureCard = page.getByTestId("settings-structure");
        await expect(structureCard.getByTestId("settings-legalStructureId")).toHaveValue(/.+/);
        await expectShownWhole(structureCard, holding, `asset settings, its structure · ${variant.label}`);

        // The debts and the flows (the kit's DataTable): the record's and its asset's names whole;
        // each one's edit dialog does not scroll sideways.
        for (const [path, name, actions, dialogName] of [
          ["/liabilities", debt, `Acciones de ${debt}`, "liability-form"],
          ["/flows", flow, `Acciones de ${flow}`, "flow-form"],
        ] as const) {
          await page.goto(path);
          const main = page.getByRole("main");
          await expect(main.getByRole("button", { name: actions })).toBeVisible();
          await expectShownWhole(main, name, `${path} · ${variant.label}`);
          await expectShownWhole(main, asset, `${path}, the asset · ${variant.label}`);
          await shot(path.slice(1));
          await expectNoSeriousA11yViolations(page, `${path} with long names · ${variant.label}`);
          await main.getByRole("button", { name: actions }).click();
          await page.getByRole("menuitem", { name: "Editar" }).click();
          await expect(page.getByTestId(dialogName)).toBeVisible();
          await expectNoSeriousA11yViolations(page, `${path}, edit dialog · ${variant.label}`);
          await page.keyboard.press("Escape");
          await expect(dialog).toHaveCount(0);
        }

        // A beneficiary's dialog: the asset an allocation goes to, named whole over its native select.
        await page.goto("/beneficiaries");
        await page.getByRole("button", { name: `Editar a ${heir}` }).click();
        await expect(page.getByTestId("beneficiary-dialog")).toBeVisible();
        await expectShownWhole(page.getByTestId("beneficiary-dialog"), asset, `beneficiary dialog · ${variant.label}`);
        await shot("beneficiary");
        await expectNoSeriousA11yViolations(page, `beneficiary dialog with a long asset name · ${variant.label}`);
        await page.keyboard.press("Escape");
        await expect(dialog).toHaveCount(0);

        // The top bar: the team workspace's whole name (wrapped within the one row), and a menu button
        // the name does not squeeze.
        const topbar = page.getByTestId("topbar");
        await topbar.getByTestId("workspace-switcher").selectOption(teamId);
        await expectShownWhole(topbar, workspace, `top bar · ${variant.label}`);
        const menu = await topbar.getByRole("button", { name: "Abrir menú" }).boundingBox();
        expect(menu?.width).toBeGreaterThanOrEqual(32);
        await shot("topbar");
        await expectNoSeriousA11yViolations(page, `top bar with a long workspace name · ${variant.label}`);
        // Back to the personal workspace, where the records are, for the next variant.
        const personal = await topbar.getByTestId("workspace-switcher").locator("option", { hasText: "(principal)" }).getAttribute("value");
        await topbar.getByTestId("workspace-switcher").selectOption(personal!);
      }
    } finally {
      await context.close();
    }
  });

  test("access denied", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "access-denied", "/admin", async (p) => {
      await expect(p.getByTestId("access-denied")).toBeVisible();
    });
  });

  test("terms of service inside the app", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "tos", "/tos/");
  });

  test("privacy policy inside the app", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "privacy", "/privacy/");
  });

  test("not found inside the app", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "not-found", "/no-existe");
  });

  test("statement import: the file step, and the preview of a Norma 43 file", async ({ page }, testInfo) => {
    await checkScreen(page, testInfo, "import", "/import");
    const screen = new ImportPage(page);
    await checkScreen(page, testInfo, "import-preview", "/import", async (p) => {
      await screenReady(p);
      await screen.choose("norma43-caixa.n43");
      await expect(p.getByTestId("import-target")).toBeVisible();
    });
  });

  test("admin enumerations", async ({ browser, baseURL }, testInfo) => {
    const admin = await adminAccount(baseURL!);
    const context = await browser.newContext({ baseURL, locale: "es-ES", storageState: storageStateFor(baseURL!, admin) });
    await checkScreen(await context.newPage(), testInfo, "admin-enums", "/admin/enums?type=country");
    await context.close();
  });

  test("admin users", async ({ browser, baseURL }, testInfo) => {
    const admin = await adminAccount(baseURL!);
    const context = await browser.newContext({ baseURL, locale: "es-ES", storageState: storageStateFor(baseURL!, admin) });
    const page = await context.newPage();
    await checkScreen(page, testInfo, "admin-users", "/admin/users", async (p) => {
      await screenReady(p);
      await expect(p.getByTestId("admin-users")).toBeVisible();
    });
    await context.close();
  });
});
