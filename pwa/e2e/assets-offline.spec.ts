// Assets and legal structures with no network, in real Chromium against the real binary. The app is
// loaded once online (the service worker precaches the app shell), then the browser context goes
// offline and stays so: structures are created, edited and deleted through the legal-structures
// form, assets through the device's commands (the sync test page, another tab of the same browser,
// same device database); a reload still shows everything; back online, the server has it all, as a
// second device that starts from the server shows. One asset goes through the real add-asset flow. Then a cycle made by two devices offline (A puts
// X under Y, B puts Y under X: each valid on its own device) is shown on both once they sync, named,
// with its figures left out, and fixed from one device; the same field changed on both is shown in
// the form where it is edited, with who wrote the value that lost, and restored.
import { readFile } from "node:fs/promises";
import { AppShell } from "./support/app-shell";
import { UserMenu } from "./support/auth-pages";
import { StructuresTab } from "./support/structures-page";
import { expect, syncTest as test, type Device } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";

/** Opens the legal-structures tab online, waits for the service worker, and returns its models. */
async function openOnline(device: Device) {
  const tab = new StructuresTab(device.page);
  await tab.open();
  await new AppShell(device.page).serviceWorkerReady();
  const indicator = new SyncIndicator(device.page);
  await indicator.toHaveState("synced");
  return { tab, indicator };
}

interface ExportFile {
  format: string;
  workspaces: { kind: string; unsyncedRecords: number; collections: Record<"assets" | "legalStructures", ({ id: string } & Record<string, unknown>)[]> }[];
}

/** The profile's "download my data": the downloaded file, parsed, after checking its name and the
 * message that names it. */
async function downloadMyData(device: Device): Promise<ExportFile> {
  const { page } = device;
  await new UserMenu(page).choose("Perfil");
  const card = page.getByTestId("data-export");
  const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Descargar mis datos" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^patrimonio-datos-\d{4}-\d{2}-\d{2}\.json$/);
  await expect(page.getByText(`Descargado ${download.suggestedFilename()}:`)).toBeVisible();
  const parsed = JSON.parse(await readFile(await download.path(), "utf8")) as ExportFile;
  expect(parsed.format).toBe("patrimonio.export");
  return parsed;
}

test.describe("assets and legal structures offline", () => {
  test.describe.configure({ timeout: 180_000 });

  test("created, edited and deleted offline, kept across a reload, and on the server once back online", async ({ devices }) => {
    const a = await devices.open();
    const { tab, indicator } = await openOnline(a);
    // The device's commands in a second tab, opened while online (then from the service worker).
    const commands = await SyncTestPage.beside(a.page);
    await commands.status.toHaveState("synced");

    // The device's copy of the enumerations (categories, provinces) has arrived: Spain's provinces
    // are offered in the form.
    await tab.newButton.click();
    await tab.fill({ country: "España" });
    await expect(tab.form.getByRole("combobox", { name: "Provincia o estado", exact: true })).toBeVisible();
    await tab.form.getByRole("button", { name: "Cancelar" }).click();
    await expect(tab.form).toBeHidden();

    await a.context.setOffline(true);
    await indicator.toHaveState("offline");

    // Create.
    await tab.create({ name: "Holding Atlántico", type: "Sociedad holding", country: "España", ownership: "70" });
    await tab.create({ name: "Inmobiliaria Vigo SL", type: "Sociedad", country: "España", state: "Pontevedra", ownership: "40", parent: "Holding Atlántico" });
    await tab.create({ name: "Sociedad Temporal SL", type: "Sociedad", country: "Francia", parent: "Holding Atlántico" });
    const flat = await commands.create("assets", {
      name: "Piso en Vigo",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      currentValue: "500000",
      legalStructureId: await tab.idOf("Inmobiliaria Vigo SL"),
    });
    const shop = await commands.create("assets", {
      name: "Local en A Coruña",
      assetClass: "real_estate",
      category: "commercial",
      currency: "EUR",
      participation: "100",
      currentValue: "180000",
      legalStructureId: await tab.idOf("Holding Atlántico"),
    });
    await expect(tab.asset("Local en A Coruña")).toBeVisible();

    // An asset through the real add-asset flow, from the holding's "add an asset" link (which
    // preselects the holding in the form): category, "add manually", the form.
    const holdingId = await tab.idOf("Holding Atlántico");
    await tab.row("Holding Atlántico").getByTestId("structure-add-asset").click();
    await a.page.getByTestId("class-bank_accounts").locator('[data-category-code="savings_account"]').click();
    await a.page.getByTestId("method-manual").click();
    const assetForm = a.page.getByTestId("asset-form");
    await expect(assetForm.getByTestId("field-legalStructureId")).toHaveValue(holdingId);
    await assetForm.getByTestId("field-name").fill("Cuenta de ahorro Abanca");
    await assetForm.getByTestId("field-institution").fill("Abanca");
    await assetForm.getByTestId("field-currentValue").fill("20.000");
    await assetForm.getByTestId("asset-submit").click();
    await expect(a.page).toHaveURL(/\/assets\/[0-9a-f-]{36}/);
    await tab.open();
    // 70 % of 20.000 € = 14.000,00 €.
    expect(await tab.figuresOf("Cuenta de ahorro Abanca")).toEqual({ share: "70 %", value: "14.000,00 €" });
    // 70 % × 40 % × 100 % of 500.000 € = 140.000,00 €.
    expect(await tab.figuresOf("Piso en Vigo")).toEqual({ share: "28 %", value: "140.000,00 €" });

    // Edit: the company is owned 50 % now, and the flat is worth 600.000 €.
    await tab.edit("Inmobiliaria Vigo SL");
    await tab.field("Porcentaje de propiedad").fill("50");
    await tab.save();
    await expect(tab.form).toBeHidden();
    await commands.update("assets", flat, "currentValue", "600000");

    // Delete: a structure through its dialog, an asset through the device's command.
    const dialog = await tab.delete("Sociedad Temporal SL");
    await dialog.getByRole("button", { name: "Eliminar estructura" }).click();
    await expect(tab.item("Sociedad Temporal SL")).toHaveCount(0);
    await commands.delete(shop);
    await expect(tab.asset("Local en A Coruña")).toHaveCount(0);

    // 70 % × 50 % × 100 % of 600.000 € = 210.000,00 €.
    const expected = { share: "35 %", value: "210.000,00 €" };
    expect(await tab.figuresOf("Piso en Vigo")).toEqual(expected);
    await indicator.toHaveState("offline");
    await expect(indicator.pending).not.toHaveCount(0);

    // A reload while offline: the app from the service worker, the records from the device.
    await a.page.reload();
    await tab.tab.waitFor();
    await indicator.toHaveState("offline");
    await expect(tab.item("Holding Atlántico").locator(tab.item("Inmobiliaria Vigo SL"))).toBeVisible();
    await expect(tab.item("Sociedad Temporal SL")).toHaveCount(0);
    await expect(tab.asset("Local en A Coruña")).toHaveCount(0);
    expect(await tab.figuresOf("Piso en Vigo")).toEqual(expected);
    await expect(tab.row("Inmobiliaria Vigo SL")).toContainText("España · Pontevedra");

    // Still offline, the profile's "download my data" gives all of it from the device: the edits
    // not sent yet included, the deleted records not.
    const exported = await downloadMyData(a);
    const personal = exported.workspaces.find((w) => w.kind === "personal")!;
    expect(personal.collections.assets.map((r) => r.name).sort()).toEqual(["Cuenta de ahorro Abanca", "Piso en Vigo"]);
    expect(personal.collections.assets.find((r) => r.name === "Piso en Vigo")).toMatchObject({ id: flat, currentValue: "600000" });
    expect(personal.collections.legalStructures.map((r) => r.name).sort()).toEqual(["Holding Atlántico", "Inmobiliaria Vigo SL"]);
    expect(personal.unsyncedRecords).toBeGreaterThan(0);
    await tab.open();

    // Back online: everything goes to the server.
    await a.context.setOffline(false);
    await indicator.toHaveState("synced");
    await expect(indicator.pending).toHaveCount(0);

    // A second device, starting from the server, has it all.
    const b = await devices.open();
    const tabB = new StructuresTab(b.page);
    await tabB.open();
    await expect(tabB.item("Holding Atlántico").locator(tabB.item("Inmobiliaria Vigo SL"))).toBeVisible();
    await expect(tabB.item("Inmobiliaria Vigo SL").locator(tabB.asset("Piso en Vigo"))).toBeVisible();
    expect(await tabB.figuresOf("Piso en Vigo")).toEqual(expected);
    expect(await tabB.figuresOf("Cuenta de ahorro Abanca")).toEqual({ share: "70 %", value: "14.000,00 €" });
    await expect(tabB.row("Inmobiliaria Vigo SL").getByTestId("structure-ownership")).toHaveText("50 %");
    await expect(tabB.item("Sociedad Temporal SL")).toHaveCount(0);
    await expect(tabB.asset("Local en A Coruña")).toHaveCount(0);
    const onB = await SyncTestPage.beside(b.page);
    await expect(onB.record(shop)).toHaveAttribute("data-deleted", "true");
    await expect(onB.record(flat)).toHaveAttribute("data-deleted", "false");
  });

  test("signing out with a change the server does not have asks first, and says so once it has been sent", async ({ devices }) => {
    const a = await devices.open();
    const { indicator } = await openOnline(a);
    const commands = await SyncTestPage.beside(a.page);
    await commands.status.toHaveState("synced");
    await a.context.setOffline(true);
    await indicator.toHaveState("offline");
    const flat = await commands.create("assets", { name: "Piso en Lugo", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" });

    // Signing out would wipe the device, and with it the change: the user is asked, and may wait.
    const menu = new UserMenu(a.page);
    await menu.choose("Cerrar sesión");
    const unsent = a.page.getByRole("alertdialog", { name: "Hay cambios sin enviar" });
    await expect(unsent.getByTestId("unsent-pending")).toHaveText("1 cambio hecho en este dispositivo aún no ha llegado al servidor.");
    await expect(unsent).toContainText("Sin conexión no se pueden enviar");
    await expect(unsent.getByRole("button", { name: "Cerrar sesión y perderlos" })).toBeVisible();
    await unsent.getByRole("button", { name: "Esperar" }).click();
    await expect(unsent).toBeHidden();
    await expect(menu.button).toBeFocused();
    await expect(a.page).not.toHaveURL(/\/signin/);

    // Asked again; back online, the change is sent while the question is open, and it says so.
    await menu.choose("Cerrar sesión");
    await expect(unsent).toBeVisible();
    await a.context.setOffline(false);
    const safe = a.page.getByRole("alertdialog", { name: "Ya se ha enviado todo" });
    await expect(safe).toContainText("puedes cerrar la sesión sin perder nada");
    await safe.getByRole("button", { name: "Cerrar sesión" }).click();
    await expect(a.page).toHaveURL(/\/signin$/);

    // The server has it: another device, starting from the server, holds the asset.
    const b = await devices.open();
    await b.page.goto("/");
    const onB = await SyncTestPage.beside(b.page);
    await expect(onB.record(flat)).toHaveAttribute("data-deleted", "false");
  });

  test("a cycle made by two offline devices is shown on both, named, and fixed", async ({ devices }) => {
    const a = await devices.open();
    const b = await devices.open();
    const onA = await openOnline(a);
    const onB = await openOnline(b);
    await onA.tab.create({ name: "Alfa Inversiones", type: "Sociedad", country: "España", ownership: "50" });
    await onA.tab.create({ name: "Beta Patrimonial", type: "Fundación", country: "España", ownership: "80" });
    const commands = await SyncTestPage.beside(a.page);
    await commands.create("assets", {
      name: "Cartera de acciones",
      assetClass: "investments",
      category: "equity",
      currency: "EUR",
      participation: "100",
      currentValue: "1000",
      legalStructureId: await onA.tab.idOf("Beta Patrimonial"),
    });
    await expect(onB.tab.item("Alfa Inversiones")).toBeVisible();
    await expect(onB.tab.asset("Cartera de acciones")).toBeVisible();

    // Both offline: A puts Alfa under Beta, B puts Beta under Alfa. Each is valid where it is made.
    await a.context.setOffline(true);
    await b.context.setOffline(true);
    await onA.indicator.toHaveState("offline");
    await onB.indicator.toHaveState("offline");
    await onA.tab.edit("Alfa Inversiones");
    await onA.tab.fill({ parent: "Beta Patrimonial", ownership: "55" });
    await onA.tab.save();
    await expect(onA.tab.form).toBeHidden();
    await expect(onA.tab.item("Beta Patrimonial").locator(onA.tab.item("Alfa Inversiones"))).toBeVisible();
    await onB.tab.edit("Beta Patrimonial");
    await onB.tab.fill({ parent: "Alfa Inversiones" });
    await onB.tab.save();
    await expect(onB.tab.form).toBeHidden();
    // B also changes Alfa's ownership (A made it 55): the same field on both, B later.
    await onB.tab.edit("Alfa Inversiones");
    await onB.tab.fill({ ownership: "65" });
    await onB.tab.save();
    await expect(onB.tab.form).toBeHidden();
    await expect(onB.tab.item("Alfa Inversiones").locator(onB.tab.item("Beta Patrimonial"))).toBeVisible();
    await expect(onA.tab.cycles).toHaveCount(0);
    await expect(onB.tab.cycles).toHaveCount(0);

    // Back online, both merge into a cycle: each device shows it, naming both structures, and
    // gives no figure for them or what they hold (instead of looping).
    await a.context.setOffline(false);
    await b.context.setOffline(false);
    await onA.indicator.toHaveState("synced");
    await onB.indicator.toHaveState("synced");
    for (const side of [onA, onB]) {
      await expect(side.tab.cycles).toHaveCount(1);
      await expect(side.tab.cycles).toHaveAttribute("data-structures", "Alfa Inversiones|Beta Patrimonial");
      await expect(side.tab.cycles).toContainText(
        "Alfa Inversiones es propiedad de Beta Patrimonial; Beta Patrimonial es propiedad de Alfa Inversiones.",
      );
      await expect(side.tab.row("Alfa Inversiones").getByTestId("structure-effective")).toHaveText("Sin calcular: hay un ciclo");
      await expect(side.tab.asset("Cartera de acciones").getByTestId("asset-effective-value")).toHaveText("—");
    }
    // Where Alfa's ownership is edited, each device shows the value that lost (A's 55) and who
    // wrote it; B restores it.
    await onA.tab.edit("Alfa Inversiones");
    await expect(onA.tab.form.getByTestId("conflict-note")).toHaveAttribute("data-field", "ownershipPercentage");
    await expect(onA.tab.form.getByTestId("conflict-note")).toContainText("Valor descartado: 55");
    await expect(onA.tab.form.getByTestId("conflict-note")).toContainText("Cambio de este dispositivo,");
    await a.page.keyboard.press("Escape");
    await expect(onA.tab.form).toBeHidden();
    await onB.tab.edit("Alfa Inversiones");
    await expect(onB.tab.form.getByTestId("conflict-note")).toContainText("Cambio de otro de tus dispositivos,");
    await onB.tab.form.getByTestId("conflict-note").getByRole("button", { name: "Restaurar" }).click();
    await expect(onB.tab.form.getByTestId("conflict-note")).toHaveCount(0);
    await b.page.keyboard.press("Escape");
    await expect(onB.tab.form).toBeHidden();

    // The page stays responsive: a reload draws the same, the other tab works.
    await a.page.reload();
    await expect(onA.tab.cycles).toHaveCount(1);

    // Fixed from A: Alfa no longer has an owner. Both devices show the sound tree again.
    await onA.tab.cycles.getByRole("button", { name: "Quitar la propietaria de Alfa Inversiones" }).click();
    for (const side of [onA, onB]) {
      await expect(side.tab.cycles).toHaveCount(0);
      await expect(side.tab.item("Alfa Inversiones").locator(side.tab.item("Beta Patrimonial"))).toBeVisible();
      // 55 % (restored) × 80 % × 100 % of 1.000 € = 440,00 €.
      await expect(side.tab.asset("Cartera de acciones").getByTestId("asset-effective-value")).toHaveText("440,00 €");
    }
  });
});
