// The legal-structures tab (/assets/?tab=legal-structures) in real Chromium against the real binary:
// a tree of structures made through the form, read back on a second device (browser context) of the
// same user after sync, with a look-through figure worked out by hand; the spec's §5 messages of the
// form in Spanish and English; a structure that would own itself is refused; axe in light and dark,
// desktop and phone.
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { ENGLISH_LABELS, StructuresTab } from "./support/structures-page";
import { Devices, expect, freshAccount, syncTest as test } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";

/** A call to the API with a session (no browser). */
async function api(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseURL}/api/v1${path}`, {
    method,
    headers: { Origin: baseURL, Accept: "application/json", Cookie: `patrimonio_session=${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

test.describe("legal structures", () => {
  // Two devices, a dozen form submissions and four axe runs: more than the default 30 s.
  test.describe.configure({ timeout: 180_000 });

  test("a tree made through the form reaches a second device with the look-through figure; §5 messages in both languages; no structure owns itself", async ({ devices }) => {
    const a = await devices.open();
    const tabA = new StructuresTab(a.page);
    await tabA.open();
    await expect(a.page.getByTestId("structures-empty")).toBeVisible();

    // §5: name, structure type and country are required — in Spanish…
    await tabA.newButton.click();
    await expect(tabA.form).toBeVisible();
    await tabA.form.getByRole("button", { name: "Crear estructura" }).click();
    await expect(tabA.form.getByText("El nombre es requerido", { exact: true })).toBeVisible();
    await expect(tabA.form.getByText("El tipo de estructura es requerido", { exact: true })).toBeVisible();
    await expect(tabA.form.getByText("El país es requerido", { exact: true })).toBeVisible();
    await expect(tabA.field("Nombre")).toHaveAttribute("aria-invalid", "true");
    await a.page.keyboard.press("Escape");
    await expect(tabA.form).toBeHidden();

    // …and in English.
    const shell = new AppShell(a.page);
    await shell.chooseLanguage("en");
    await a.page.getByRole("button", { name: "New structure" }).click();
    await tabA.form.getByRole("button", { name: "Create structure" }).click();
    await expect(tabA.form.getByText("Name is required", { exact: true })).toBeVisible();
    await expect(tabA.form.getByText("Structure type is required", { exact: true })).toBeVisible();
    await expect(tabA.form.getByText("Country is required", { exact: true })).toBeVisible();
    // Filling a field clears its message, the others stay.
    await tabA.fill({ name: "Holding" }, ENGLISH_LABELS);
    await tabA.form.getByRole("button", { name: "Create structure" }).click();
    await expect(tabA.form.getByText("Name is required", { exact: true })).toHaveCount(0);
    await expect(tabA.form.getByText("Country is required", { exact: true })).toBeVisible();
    // The form holds a typed name: Escape asks before dropping it.
    await a.page.keyboard.press("Escape");
    await a.page.getByRole("alertdialog", { name: "Discard your changes?" }).getByRole("button", { name: "Discard" }).click();
    await expect(tabA.form).toBeHidden();
    await shell.chooseLanguage("es");
    await expect(a.page.getByText("Aún no hay estructuras jurídicas")).toBeVisible();

    // The tree: the person owns 60 % of a holding, which owns 50 % of a company; the company holds
    // an office building (100 %) worth 1.000.000 €. By hand: 60 % × 50 % × 100 % = 30 %, and
    // 30 % of 1.000.000 € = 300.000,00 €.
    await tabA.create({ name: "Holding Familiar", type: "Sociedad holding", country: "España", ownership: "60" });
    await tabA.create({
      name: "Inversiones Castellana SL",
      type: "Sociedad",
      country: "España",
      state: "Madrid",
      ownership: "50",
      parent: "Holding Familiar",
    });
    await tabA.create({ name: "Fundación Norte", type: "Fundación", country: "Portugal" });
    const companyId = await tabA.idOf("Inversiones Castellana SL");

    // The asset comes from the device's commands in another tab of the same browser (the add-asset
    // form has its own spec); it is held by the company.
    const commands = await SyncTestPage.beside(a.page);
    await commands.create("assets", {
      name: "Oficinas de la Castellana",
      assetClass: "real_estate",
      category: "commercial",
      currency: "EUR",
      participation: "100",
      currentValue: "1000000",
      legalStructureId: companyId,
    });

    await expect(tabA.item("Holding Familiar").locator(tabA.item("Inversiones Castellana SL"))).toBeVisible();
    await expect(tabA.item("Inversiones Castellana SL").locator(tabA.asset("Oficinas de la Castellana"))).toBeVisible();
    await expect(tabA.row("Holding Familiar").getByTestId("structure-effective")).toHaveText("60 %");
    await expect(tabA.row("Inversiones Castellana SL").getByTestId("structure-effective")).toHaveText("30 %");
    await expect(tabA.asset("Oficinas de la Castellana").getByTestId("asset-effective-share")).toHaveText("30 %");
    await expect(tabA.asset("Oficinas de la Castellana").getByTestId("asset-effective-value")).toHaveText("300.000,00 €");
    await new SyncIndicator(a.page).toHaveState("synced");

    // A second device of the same user gets the same tree from the server.
    const b = await devices.open();
    const tabB = new StructuresTab(b.page);
    await tabB.open();
    await expect(tabB.item("Holding Familiar").locator(tabB.item("Inversiones Castellana SL"))).toBeVisible();
    await expect(tabB.item("Inversiones Castellana SL").locator(tabB.asset("Oficinas de la Castellana"))).toBeVisible();
    await expect(tabB.item("Fundación Norte")).toBeVisible();
    expect(await tabB.figuresOf("Oficinas de la Castellana")).toEqual({ share: "30 %", value: "300.000,00 €" });
    await expect(tabB.row("Inversiones Castellana SL")).toContainText("España · Madrid");
    await expect(tabB.row("Inversiones Castellana SL").getByTestId("structure-ownership")).toHaveText("50 %");

    // Collapse and expand.
    const holdingToggle = tabB.row("Holding Familiar").getByTestId("structure-toggle");
    await expect(holdingToggle).toHaveAttribute("aria-expanded", "true");
    await holdingToggle.click();
    await expect(holdingToggle).toHaveAttribute("aria-expanded", "false");
    await expect(tabB.item("Inversiones Castellana SL")).toBeHidden();
    await holdingToggle.press("Enter");
    await expect(tabB.item("Inversiones Castellana SL")).toBeVisible();

    // No structure owns itself: the holding's owner picker offers neither the holding nor the
    // company it owns, only the foundation.
    await tabB.edit("Holding Familiar");
    const owner = tabB.form.getByRole("combobox", { name: "Estructura propietaria", exact: true });
    await owner.fill("Holding");
    await expect(b.page.getByRole("option")).toHaveCount(0);
    await owner.fill("Inversiones");
    await expect(b.page.getByRole("option")).toHaveCount(0);
    await owner.fill("");
    await owner.press("ArrowDown");
    await expect(b.page.getByRole("listbox", { name: "Estructura propietaria" }).getByRole("option")).toHaveText([/^Fundación Norte/]);

    // And the device refuses it when the tree changed while the form was open: B picks the
    // foundation as the holding's owner; meanwhile (another tab) the foundation is put under the
    // company, which the holding owns. Saving would make the holding own itself.
    await owner.fill("Fundación");
    await owner.press("Enter");
    await expect(owner).toHaveValue("Fundación Norte");
    const other = await SyncTestPage.beside(b.page);
    await other.update("legalStructures", await tabB.idOf("Fundación Norte"), "parentStructureId", companyId);
    await expect(tabB.item("Inversiones Castellana SL").locator(tabB.item("Fundación Norte"))).toBeVisible();
    await tabB.save();
    await expect(
      tabB.form.getByText("Una estructura no puede ser propietaria de sí misma, ni directamente ni a través de otras estructuras", { exact: true }),
    ).toBeVisible();
    await expect(owner).toHaveAttribute("aria-invalid", "true");
    await b.page.keyboard.press("Escape");
    await b.page.getByRole("alertdialog", { name: "¿Descartar los cambios?" }).getByRole("button", { name: "Descartar" }).click();
    // Nothing was written: no cycle on either device, the holding is still at the top.
    await expect(tabB.cycles).toHaveCount(0);
    await expect(tabB.row("Holding Familiar")).toContainText("Tu participación");
    await expect(tabA.item("Inversiones Castellana SL").locator(tabA.item("Fundación Norte"))).toBeVisible();
    await expect(tabA.cycles).toHaveCount(0);

    // Accessible in light and dark, desktop and phone: the tree, and the form open.
    await forEachA11yVariant(b.page, async (variant) => {
      await tabB.open();
      await expect(tabB.item("Fundación Norte")).toBeVisible();
      await expectVariantApplied(b.page, variant);
      await expectNoSeriousA11yViolations(b.page, `legal structures · ${variant.label}`);
      await tabB.edit("Inversiones Castellana SL");
      await expectNoSeriousA11yViolations(b.page, `legal structure form · ${variant.label}`);
      await b.page.keyboard.press("Escape");
    });
  });

  test("edit and delete: what the structure owned stays, owned directly", async ({ devices }) => {
    const a = await devices.open();
    const tab = new StructuresTab(a.page);
    await tab.open();
    await tab.create({ name: "Patrimonial Sur", type: "Sociedad holding", country: "España", ownership: "100" });
    await tab.create({ name: "Viñedos del Duero SL", type: "Sociedad", country: "España", ownership: "25", parent: "Patrimonial Sur" });
    const commands = await SyncTestPage.beside(a.page);
    await commands.create("assets", {
      name: "Finca La Ribera",
      assetClass: "real_estate",
      category: "industrial",
      currency: "EUR",
      participation: "80",
      otherOwners: [{ name: "Lucía Gómez", percentage: "20" }],
      currentValue: "250000.50",
      legalStructureId: await tab.idOf("Patrimonial Sur"),
    });
    expect(await tab.figuresOf("Finca La Ribera")).toEqual({ share: "80 %", value: "200.000,40 €" });

    // Edit: the holding is owned 50 % now; the figure follows (50 % × 80 % of 250.000,50 €).
    await tab.edit("Patrimonial Sur");
    await tab.field("Porcentaje de propiedad").fill("50");
    await tab.save();
    await expect(tab.form).toBeHidden();
    await expect(tab.asset("Finca La Ribera").getByTestId("asset-effective-value")).toHaveText("100.000,20 €");
    await expect(tab.row("Viñedos del Duero SL").getByTestId("structure-effective")).toHaveText("12,5 %");

    // Delete says what happens to what it owns, and does it.
    const dialog = await tab.delete("Patrimonial Sur");
    await expect(dialog).toContainText("La estructura que posee (Viñedos del Duero SL) pasará a ser tuya directamente.");
    await expect(dialog).toContainText("El activo que tiene (Finca La Ribera) pasará a ser tuyo directamente; no se elimina.");
    await dialog.getByRole("button", { name: "Eliminar estructura" }).click();
    await expect(dialog).toBeHidden();
    await expect(tab.item("Patrimonial Sur")).toHaveCount(0);
    await expect(tab.row("Viñedos del Duero SL").getByTestId("structure-effective")).toHaveText("25 %");
    await expect(tab.asset("Finca La Ribera")).toHaveCount(0);
    // Focus went with the deleted row; the structure that took its place among the top-level ones,
    // the one it owned, has it now, on the same button (ui/focusKeeper.ts).
    await expect(tab.row("Viñedos del Duero SL").getByTestId("structure-delete")).toBeFocused();
    // The asset is still there, held directly.
    await expect(async () => {
      const shown = await commands.shown();
      const finca = shown.records.find((r) => r.collection === "assets" && r.fields.name === "Finca La Ribera");
      expect(finca?.deleted).toBe(false);
      expect(finca?.fields.legalStructureId).toBeUndefined();
    }).toPass();

    // A structure deleted from the keyboard: focus went with its row, and goes to the same button
    // of the row now in its place, here the one before it (it was last), not to the page
    // (ui/focusKeeper.ts).
    await commands.create("legalStructures", { name: "Alfa Capital SL", structureType: "company", country: "ES" });
    await expect(tab.item("Alfa Capital SL")).toBeVisible();
    await tab.row("Viñedos del Duero SL").getByTestId("structure-delete").focus();
    await a.page.keyboard.press("Enter");
    const second = a.page.getByTestId("structure-delete-dialog");
    await expect(second).toBeVisible();
    await second.getByRole("button", { name: "Eliminar estructura" }).click();
    await expect(second).toBeHidden();
    await expect(tab.item("Viñedos del Duero SL")).toHaveCount(0);
    await expect(tab.row("Alfa Capital SL").getByTestId("structure-delete")).toBeFocused();
  });

  test("a viewer of a team workspace sees the tree read-only, with the reason", async ({ browser, devices }) => {
    const owner = devices.account;
    const viewer = await freshAccount(devices.baseURL, "structures-viewer");
    const { workspace } = (await api(devices.baseURL, "POST", "/workspaces", owner.sessionToken, { name: "Familia" })) as { workspace: { id: string } };
    await api(devices.baseURL, "POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: viewer.email, role: "viewer" });
    const invitations = (await api(devices.baseURL, "GET", "/invitations", viewer.sessionToken)) as { id: string }[];
    await api(devices.baseURL, "POST", `/invitations/${invitations[0]!.id}/accept`, viewer.sessionToken);
    const inTeam = (id: string) => window.localStorage.setItem("patrimonio.activeWorkspace", id);

    // The owner builds a small tree in the team workspace.
    const o = await devices.open();
    await o.context.addInitScript(inTeam, workspace.id);
    const ownerTab = new StructuresTab(o.page);
    await ownerTab.open();
    await ownerTab.create({ name: "Holding Familia", type: "Sociedad holding", country: "España", ownership: "100" });
    await ownerTab.create({ name: "Agrícola del Sur SL", type: "Sociedad", country: "España", ownership: "30", parent: "Holding Familia" });
    await new SyncIndicator(o.page).toHaveState("synced");

    const viewers = new Devices(browser, devices.baseURL, viewer);
    try {
      const v = await viewers.open();
      await v.context.addInitScript(inTeam, workspace.id);
      const tab = new StructuresTab(v.page);
      await tab.open();
      await expect(tab.item("Holding Familia").locator(tab.item("Agrícola del Sur SL"))).toBeVisible();
      await expect(tab.row("Agrícola del Sur SL").getByTestId("structure-effective")).toHaveText("30 %");
      const notice = v.page.getByTestId("read-only-notice");
      await expect(notice).toHaveCount(1);
      await expect(notice).toContainText("tu rol en este espacio de trabajo es «lector»");
      // Nothing to create, change or delete with.
      await expect(tab.newButton).toHaveCount(0);
      await expect(v.page.getByTestId("structure-edit")).toHaveCount(0);
      await expect(v.page.getByTestId("structure-delete")).toHaveCount(0);
      await expect(v.page.getByTestId("structure-add-child")).toHaveCount(0);
      await expect(v.page.getByTestId("structure-add-asset")).toHaveCount(0);
    } finally {
      await viewers.closeAll();
    }
  });
});
