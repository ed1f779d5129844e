// The logins vault end to end (real server binary on SQLite, Chromium): set up with a passphrase, a
// login added with a marker secret that never reaches the server's database files (records and
// change log) nor Chromium's IndexedDB — only its ciphertext does; a second device sees the list
// locked, refuses a wrong passphrase, unlocks offline; a passphrase change re-wraps the key and the
// other device needs the new one; editing and deleting; English once; axe light and dark at 1280 and
// 320 wide. And a viewer of a shared workspace unlocks and reads (secret and notes) but cannot write.
// A key rotation: a new key and passphrase; after a reload only the new passphrase opens the vault
// and reads the secret; a device still unlocked with the old key is told and reopens with the new one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, syncTest as test } from "./support/sync-fixtures";
import { SyncIndicator } from "./support/sync-page";

const PASS_1 = "caballo grapa batería correcto";
const PASS_2 = "la lluvia en Sevilla es una maravilla";
const PASS_3 = "una clave nueva tras la filtración";
const SECRET = "MARCA-SECRETA-7f3a9c-contraseña";
const SECRET_2 = "MARCA-SECRETA-b81e44-nueva";
const NOTES = "MARCA-NOTA-5d2e10 la tarjeta está en el cajón";
const USER = "ana.garcia.e2e";

/** Every file under a directory, as bytes. */
function bytesUnder(dir: string): Buffer[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name)));
}

function contains(files: Buffer[], text: string): boolean {
  const needle = Buffer.from(text, "utf8");
  return files.some((b) => b.includes(needle));
}

/** Every row of every object store of every IndexedDB database of the page's origin, as JSON. */
async function indexedDbDump(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: unknown[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        out.push(info.name, store, rows);
      }
      db.close();
    }
    return JSON.stringify(out);
  });
}

class LoginsPage {
  readonly heading: Locator;
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.form = page.getByTestId("login-form");
  }

  async goto(): Promise<void> {
    await this.page.goto("/logins");
    await expect(this.page.getByTestId("logins-screen")).toBeVisible();
    await expect(this.page.getByTestId("route-pending")).toHaveCount(0);
  }

  row(institution: string): Locator {
    return this.page.getByRole("row").filter({ has: this.page.getByTestId("login-row-institution").getByText(institution, { exact: true }) });
  }

  async unlock(passphrase: string): Promise<void> {
    await this.page.getByTestId("vault-passphrase").fill(passphrase);
    await this.page.getByTestId("vault-unlock").click();
  }

  async reveal(institution: string): Promise<Locator> {
    const row = this.row(institution);
    await row.getByTestId("login-reveal").click();
    return row.getByTestId("login-secret");
  }
}

test.describe("logins vault", () => {
  test.describe.configure({ timeout: 150_000 });

  test("end-to-end encrypted: ciphertext only on the server and in IndexedDB; other device, wrong passphrase, offline unlock, passphrase change; accessible", async ({ devices, e2eServer }) => {
    const a = await devices.open();
    const onA = new LoginsPage(a.page);
    await onA.goto();
    await new AppShell(a.page).serviceWorkerReady();
    const indicatorA = new SyncIndicator(a.page);
    await indicatorA.toHaveState("synced");

    // Set up: too short, then mismatched, then right.
    const setup = a.page.getByTestId("vault-setup");
    await setup.getByTestId("vault-new-passphrase").fill("corta");
    await expect(setup.getByTestId("vault-strength")).toHaveText("Demasiado corta: al menos 12 caracteres.");
    await setup.getByTestId("vault-create").click();
    await expect(setup.getByText("La frase de paso debe tener al menos 12 caracteres")).toBeVisible();
    await setup.getByTestId("vault-new-passphrase").fill(PASS_1);
    await expect(setup.getByTestId("vault-strength")).toHaveText("Robusta.");
    await setup.getByTestId("vault-repeat-passphrase").fill(`${PASS_1}!`);
    await setup.getByTestId("vault-create").click();
    await expect(setup.getByText("Las dos frases de paso no coinciden")).toBeVisible();
    await setup.getByTestId("vault-repeat-passphrase").fill(PASS_1);
    await setup.getByTestId("vault-create").click();
    await expect(a.page.getByTestId("vault-unlocked")).toContainText("Se bloqueará tras 5 minutos sin actividad");

    // A login; the shared schema's plaintext limit on the device.
    await a.page.getByTestId("login-new").click();
    await onA.form.getByTestId("login-institution").fill("Banco Marcador");
    await onA.form.getByTestId("login-url").fill("https://banca.example.com/acceso");
    await onA.form.getByTestId("login-username").fill(USER);
    await onA.form.getByTestId("login-secret").fill("s".repeat(1001));
    await onA.form.getByTestId("login-save").click();
    await expect(onA.form.getByText("Debe tener como máximo 1.000 caracteres")).toBeVisible();
    await onA.form.getByTestId("login-secret").fill(SECRET);
    await onA.form.getByTestId("login-notes").fill(NOTES);
    await onA.form.getByTestId("login-save").click();
    await expect(onA.form).toBeHidden();
    await expect(await onA.reveal("Banco Marcador")).toHaveText(SECRET);
    await indicatorA.toHaveState("synced");
    await expect(indicatorA.pending).toHaveCount(0);

    // Ciphertext only: the server's database files (records and change log) and A's IndexedDB hold
    // the user name (so the scans do read the data) but neither the secret nor the notes.
    const serverFiles = bytesUnder(e2eServer.dataDir);
    expect(contains(serverFiles, USER)).toBe(true);
    expect(contains(serverFiles, "MARCA-")).toBe(false);
    const idbA = await indexedDbDump(a.page);
    expect(idbA).toContain(USER);
    expect(idbA).toMatch(/"secret":"v1\.[A-Za-z0-9_-]{11}\./);
    expect(idbA).not.toContain("MARCA-");

    // Device B: locked by default (institution and user name, no secret); a wrong passphrase.
    const b = await devices.open();
    const onB = new LoginsPage(b.page);
    await onB.goto();
    await new AppShell(b.page).serviceWorkerReady();
    await expect(onB.row("Banco Marcador")).toContainText(USER);
    await expect(onB.row("Banco Marcador").getByTestId("login-secret-locked")).toHaveText("Baúl bloqueado");
    await onB.unlock("no es la frase de paso");
    await expect(b.page.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await expect(b.page.getByTestId("vault-locked")).toBeVisible();

    // Offline, after a reload from the service worker, the passphrase opens it.
    await b.context.setOffline(true);
    await b.page.reload();
    await expect(onB.row("Banco Marcador")).toBeVisible();
    await onB.unlock(PASS_1);
    await expect(b.page.getByTestId("vault-unlocked")).toBeVisible();
    await expect(await onB.reveal("Banco Marcador")).toHaveText(SECRET);
    await b.page.getByTestId("vault-lock").click();
    await expect(onB.row("Banco Marcador").getByTestId("login-secret-locked")).toBeVisible();
    await b.context.setOffline(false);

    // A changes the passphrase (a wrong current one first) and the secret.
    await a.page.getByTestId("vault-change-open").click();
    const change = a.page.getByTestId("vault-change");
    await change.getByTestId("vault-current-passphrase").fill("tampoco es la frase");
    await change.getByTestId("vault-new-passphrase").fill(PASS_2);
    await change.getByTestId("vault-repeat-passphrase").fill(PASS_2);
    await change.getByTestId("vault-change-submit").click();
    await expect(change.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await change.getByTestId("vault-current-passphrase").fill(PASS_1);
    await change.getByTestId("vault-change-submit").click();
    await expect(change).toBeHidden();
    await onA.row("Banco Marcador").getByRole("button", { name: /Acciones/ }).click();
    await a.page.getByRole("menuitem", { name: "Editar" }).click();
    await expect(onA.form.getByTestId("login-secret")).toHaveValue(SECRET);
    await expect(onA.form.getByTestId("login-notes")).toHaveValue(NOTES);
    await onA.form.getByTestId("login-secret").fill(SECRET_2);
    await onA.form.getByTestId("login-save").click();
    await expect(onA.form).toBeHidden();
    await indicatorA.toHaveState("synced");
    await expect(indicatorA.pending).toHaveCount(0);

    // B: the old passphrase no longer opens it, the new one does, and shows the new secret.
    // (B has caught up once it holds A's new secret ciphertext: the re-wrapped key came before it.)
    const sealedOnA = [...new Set((await indexedDbDump(a.page)).match(/"secret":"v1[^"]+"/g) ?? [])];
    expect(sealedOnA.length).toBeGreaterThan(0);
    await onB.goto();
    await expect
      .poll(async () => {
        const dumpB = await indexedDbDump(b.page);
        return sealedOnA.every((c) => dumpB.includes(c));
      })
      .toBe(true);
    await onB.unlock(PASS_1);
    await expect(b.page.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await onB.unlock(PASS_2);
    await expect(await onB.reveal("Banco Marcador")).toHaveText(SECRET_2);
    expect(contains(bytesUnder(e2eServer.dataDir), "MARCA-")).toBe(false);
    expect(await indexedDbDump(b.page)).not.toContain("MARCA-");

    // English once.
    await b.page.evaluate(() => window.localStorage.setItem("i18nextLng", "en"));
    await b.page.reload();
    await expect(onB.heading).toHaveText("Logins");
    await expect(b.page.getByTestId("vault-locked")).toContainText("Vault locked");
    await expect(onB.row("Banco Marcador").getByTestId("login-secret-locked")).toHaveText("Vault locked");
    await b.page.evaluate(() => window.localStorage.setItem("i18nextLng", "es"));

    // Accessible, unlocked with a secret shown, and the emergency sheet (no secret on it).
    await forEachA11yVariant(b.page, async (variant) => {
      await onB.goto();
      await onB.unlock(PASS_2);
      await expect(await onB.reveal("Banco Marcador")).toHaveText(SECRET_2);
      await expectVariantApplied(b.page, variant);
      await expectNoSeriousA11yViolations(b.page, `logins · ${variant.label}`);
    });
    await b.page.getByTestId("vault-sheet-open").click();
    const sheet = b.page.getByTestId("vault-sheet-content");
    await expect(sheet).toContainText(USER);
    await expect(sheet).toContainText("/logins");
    await expect(sheet).not.toContainText("MARCA-");
    await expectNoSeriousA11yViolations(b.page, "logins emergency sheet");
    await b.page.keyboard.press("Escape");

    // Deleted on B, gone on A.
    await onB.row("Banco Marcador").getByRole("button", { name: /Acciones/ }).click();
    await b.page.getByRole("menuitem", { name: "Eliminar" }).click();
    await b.page.getByTestId("login-delete").getByRole("button", { name: "Eliminar acceso" }).click();
    await expect(onB.row("Banco Marcador")).toHaveCount(0);
    await expect(onA.row("Banco Marcador")).toHaveCount(0);
    await expect(a.page.getByTestId("logins-empty")).toBeVisible();
  });

  test("key rotation: after a reload only the new passphrase opens the vault and reads the secret; a device unlocked with the old key is told and reopens with the new one; accessible", async ({ devices, e2eServer }) => {
    const a = await devices.open();
    const onA = new LoginsPage(a.page);
    await onA.goto();
    const indicatorA = new SyncIndicator(a.page);
    await indicatorA.toHaveState("synced");
    await a.page.getByTestId("vault-new-passphrase").fill(PASS_1);
    await a.page.getByTestId("vault-repeat-passphrase").fill(PASS_1);
    await a.page.getByTestId("vault-create").click();
    await a.page.getByTestId("login-new").click();
    await onA.form.getByTestId("login-institution").fill("Banco Rotado");
    await onA.form.getByTestId("login-username").fill(USER);
    await onA.form.getByTestId("login-secret").fill(SECRET);
    await onA.form.getByTestId("login-notes").fill(NOTES);
    await onA.form.getByTestId("login-save").click();
    await expect(onA.form).toBeHidden();
    await indicatorA.toHaveState("synced");
    await expect(indicatorA.pending).toHaveCount(0);

    // Device B unlocks with the passphrase of the time and stays unlocked.
    const b = await devices.open();
    const onB = new LoginsPage(b.page);
    await onB.goto();
    await onB.unlock(PASS_1);
    await expect(await onB.reveal("Banco Rotado")).toHaveText(SECRET);

    // The dialog says what it does and when to use it; accessible in every variant.
    const rotate = a.page.getByTestId("vault-rotate");
    await forEachA11yVariant(a.page, async (variant) => {
      await onA.goto();
      await onA.unlock(PASS_1);
      await a.page.getByTestId("vault-rotate-open").click();
      await expect(rotate).toContainText("Úsalo si la frase de paso se ha filtrado o si has quitado del espacio de trabajo a alguien que la conocía");
      await expect(rotate).toContainText("nunca lo que se guarde después");
      await expectVariantApplied(a.page, variant);
      await expectNoSeriousA11yViolations(a.page, `logins key rotation · ${variant.label}`);
    });

    // A wrong current passphrase changes nothing; the right one rotates.
    await rotate.getByTestId("vault-current-passphrase").fill("tampoco es la frase");
    await rotate.getByTestId("vault-new-passphrase").fill(PASS_3);
    await rotate.getByTestId("vault-repeat-passphrase").fill(PASS_3);
    await rotate.getByTestId("vault-rotate-submit").click();
    await expect(rotate.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await rotate.getByTestId("vault-current-passphrase").fill(PASS_1);
    await rotate.getByTestId("vault-rotate-submit").click();
    await expect(rotate).toBeHidden();
    await expect(await onA.reveal("Banco Rotado")).toHaveText(SECRET);
    await indicatorA.toHaveState("synced");
    await expect(indicatorA.pending).toHaveCount(0);
    expect(contains(bytesUnder(e2eServer.dataDir), "MARCA-")).toBe(false);
    expect(await indexedDbDump(a.page)).not.toContain("MARCA-");

    // Reloaded: the old passphrase no longer opens the vault; the new one does and reads the secret.
    await a.page.reload();
    await expect(a.page.getByTestId("vault-locked")).toBeVisible();
    await onA.unlock(PASS_1);
    await expect(a.page.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await onA.unlock(PASS_3);
    await expect(a.page.getByTestId("vault-unlocked")).toBeVisible();
    await expect(await onA.reveal("Banco Rotado")).toHaveText(SECRET);

    // B, still unlocked with the old key, is told; the new passphrase reopens it with the new key.
    const rotated = b.page.getByTestId("vault-rotated-elsewhere");
    await expect(rotated).toContainText("Lo que guardes ahora en esta sesión se cifra aún con la clave anterior");
    await expect(b.page.getByTestId("vault-other-key")).toHaveCount(0);
    await expectNoSeriousA11yViolations(b.page, "logins key rotated elsewhere");
    await b.page.getByTestId("vault-rotated-passphrase").fill(PASS_1);
    await b.page.getByTestId("vault-rotated-unlock").click();
    await expect(rotated.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await b.page.getByTestId("vault-rotated-passphrase").fill(PASS_3);
    await b.page.getByTestId("vault-rotated-unlock").click();
    await expect(rotated).toHaveCount(0);
    await b.page.reload();
    await onB.unlock(PASS_1);
    await expect(b.page.getByText("La frase de paso no es correcta. No se ha cambiado nada.")).toBeVisible();
    await onB.unlock(PASS_3);
    await expect(await onB.reveal("Banco Rotado")).toHaveText(SECRET);
  });

  test("a device that has not received the workspace yet does not offer to set up the vault, until it has", async ({ devices }) => {
    const a = await devices.open();
    // The device's sync socket is refused until `connect`: it opens the app but receives nothing.
    let connect = false;
    await a.context.routeWebSocket(/\/api\/v1\/sync(\?|$)/, (ws) => {
      if (connect) ws.connectToServer();
      else ws.close();
    });
    const onA = new LoginsPage(a.page);
    await onA.goto();
    await expect(a.page.getByTestId("vault-not-held")).toHaveText(/aún no ha recibido los datos del espacio de trabajo y ahora no tiene conexión/);
    await expect(a.page.getByTestId("vault-setup")).toHaveCount(0);

    connect = true;
    // Off and on again: the client reconnects at once instead of after its growing backoff.
    await a.context.setOffline(true);
    await a.context.setOffline(false);
    await new SyncIndicator(a.page).toHaveState("synced");
    await expect(a.page.getByTestId("vault-setup")).toBeVisible();
    await expect(a.page.getByTestId("vault-not-held")).toHaveCount(0);
  });

  test("a viewer unlocks and reads a shared workspace's logins and their notes but cannot write", async ({ browser, devices }) => {
    const baseURL = devices.baseURL;
    const viewer = await createOnboardedAccount(baseURL, `e2e-logins-viewer-${Date.now()}@example.com`, "lengthy e2e viewer passphrase 4471");
    const owner = await devices.open();
    const viewerContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, viewer), locale: "es-ES", timezoneId: "Europe/Madrid" });
    try {
      const headers = { Origin: baseURL };
      const team = await owner.context.request.post("/api/v1/workspaces", { headers, data: { name: "Familia" } });
      expect(team.status()).toBe(201);
      const teamId = ((await team.json()) as { workspace: { id: string } }).workspace.id;
      const invited = await owner.context.request.post(`/api/v1/workspaces/${teamId}/invitations`, { headers, data: { email: viewer.email, role: "viewer" } });
      expect(invited.ok(), await invited.text()).toBe(true);
      const inbox = (await (await viewerContext.request.get("/api/v1/invitations")).json()) as { id: string }[];
      expect((await viewerContext.request.post(`/api/v1/invitations/${inbox[0]!.id}/accept`, { headers })).ok()).toBe(true);

      await owner.page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onOwner = new LoginsPage(owner.page);
      await onOwner.goto();
      await owner.page.getByTestId("vault-new-passphrase").fill(PASS_1);
      await owner.page.getByTestId("vault-repeat-passphrase").fill(PASS_1);
      await owner.page.getByTestId("vault-create").click();
      await owner.page.getByTestId("login-new").click();
      await onOwner.form.getByTestId("login-institution").fill("Bróker Familiar");
      await onOwner.form.getByTestId("login-username").fill("familia-2024");
      await onOwner.form.getByTestId("login-secret").fill(SECRET);
      await onOwner.form.getByTestId("login-notes").fill(NOTES);
      await onOwner.form.getByTestId("login-save").click();
      await expect(onOwner.form).toBeHidden();
      await new SyncIndicator(owner.page).toHaveState("synced");
      await expect(new SyncIndicator(owner.page).pending).toHaveCount(0);

      const page = await viewerContext.newPage();
      await page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onViewer = new LoginsPage(page);
      await onViewer.goto();
      await expect(page.getByTestId("read-only-notice")).toContainText("no crearlos, modificarlos ni eliminarlos");
      await expect(onViewer.row("Bróker Familiar")).toContainText("familia-2024");
      await onViewer.unlock(PASS_1);
      await expect(await onViewer.reveal("Bróker Familiar")).toHaveText(SECRET);
      // The notes for heirs are theirs to read too.
      await onViewer.row("Bróker Familiar").getByRole("button", { name: "Leer las notas de Bróker Familiar" }).click();
      await expect(page.getByTestId("login-notes-dialog")).toContainText(NOTES);
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("login-notes-dialog")).toHaveCount(0);
      await expect(page.getByTestId("login-new")).toHaveCount(0);
      await expect(page.getByTestId("vault-change-open")).toHaveCount(0);
      await expect(page.getByTestId("vault-rotate-open")).toHaveCount(0);
      await expect(onViewer.row("Bróker Familiar").getByRole("button", { name: /Acciones/ })).toHaveCount(0);
    } finally {
      await viewerContext.close();
    }
  });
});
