// Page model of the legal-structures tab (/assets/?tab=legal-structures) and its form, in Spanish
// unless a test switches the language. Used by assets-structures.spec.ts and assets-offline.spec.ts.
import { expect, type Locator, type Page } from "@playwright/test";
import { chooseOption, pickFirstMatch } from "./pickers";

export const STRUCTURES_PATH = "/assets/?tab=legal-structures";

export interface StructureInputValues {
  name?: string;
  /** The type's label as shown ("Sociedad holding"). */
  type?: string;
  /** What to type in the country picker ("España"); Enter picks the first match. */
  country?: string;
  state?: string;
  /** As the reader types it ("60", "12,5"). */
  ownership?: string;
  /** The owner's name; "" clears the owner. */
  parent?: string;
}

export class StructuresTab {
  readonly tab: Locator;
  readonly newButton: Locator;
  readonly form: Locator;
  readonly cycles: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByTestId("structures-tab");
    this.newButton = page.getByTestId("structure-new");
    this.form = page.getByTestId("structure-form");
    this.cycles = page.getByTestId("structure-cycle");
  }

  async open(): Promise<void> {
    await this.page.goto(STRUCTURES_PATH);
    await this.tab.waitFor();
  }

  /** A structure of the tree, by its exact name. */
  item(name: string): Locator {
    return this.page.locator(`[data-testid="structure-item"][data-name="${name}"]`);
  }

  /** The row of a structure (without what it owns). */
  row(name: string): Locator {
    return this.item(name).locator(":scope > div").first();
  }

  /** An asset of the tree, by its exact name. */
  asset(name: string): Locator {
    return this.page.locator(`[data-testid="structure-asset"][data-name="${name}"]`);
  }

  async idOf(name: string): Promise<string> {
    const id = await this.item(name).first().getAttribute("data-structure-id");
    if (!id) throw new Error(`no structure named ${name}`);
    return id;
  }

  /** A text field of the form by its label. */
  field(label: string): Locator {
    return this.form.getByRole("textbox", { name: label, exact: true });
  }

  async fill(values: StructureInputValues, labels = SPANISH_LABELS): Promise<void> {
    if (values.name !== undefined) await this.field(labels.name).fill(values.name);
    if (values.type !== undefined) {
      await chooseOption(this.form.getByRole("combobox", { name: labels.type, exact: true }), values.type);
    }
    if (values.country !== undefined) {
      await pickFirstMatch(this.form.getByRole("combobox", { name: labels.country, exact: true }), values.country);
    }
    if (values.state !== undefined) {
      // A picker when the device knows the country's provinces, else a text field; the picker
      // replaces the text field once the provinces are read, so try again if it did meanwhile.
      const state = values.state;
      await expect(async () => {
        const picker = this.form.getByRole("combobox", { name: labels.state, exact: true });
        // Each try waits briefly: the text field may be gone (replaced by the picker) by the time
        // it is filled, and a fill would otherwise wait for it until the test's own bound.
        if ((await picker.count()) > 0) {
          await picker.fill(state, { timeout: 2000 });
          await picker.press("Enter", { timeout: 2000 });
          await expect(picker).toHaveValue(state, { timeout: 1000 });
        } else {
          await this.field(labels.state).fill(state, { timeout: 2000 });
          await expect(this.field(labels.state)).toHaveValue(state, { timeout: 1000 });
        }
      }).toPass({ timeout: 30_000 });
    }
    if (values.ownership !== undefined) await this.field(labels.ownership).fill(values.ownership);
    if (values.parent !== undefined) {
      const parent = this.form.getByRole("combobox", { name: labels.parent, exact: true });
      if (values.parent === "") {
        await parent.fill("");
        await parent.press("Tab");
      } else await pickFirstMatch(parent, values.parent);
    }
  }

  /** New structure through the form; waits until it is in the tree. */
  async create(values: StructureInputValues): Promise<void> {
    await this.newButton.click();
    await expect(this.form).toBeVisible();
    await this.fill(values);
    await this.form.getByRole("button", { name: "Crear estructura" }).click();
    await expect(this.form).toBeHidden();
    if (values.name) await expect(this.item(values.name)).toBeVisible();
  }

  /** Opens the edit form of a structure. */
  async edit(name: string): Promise<void> {
    await this.row(name).getByTestId("structure-edit").click();
    await expect(this.form).toBeVisible();
    await expect(this.field(SPANISH_LABELS.name)).toHaveValue(name);
  }

  async save(): Promise<void> {
    await this.form.getByRole("button", { name: "Guardar cambios" }).click();
  }

  async delete(name: string): Promise<Locator> {
    await this.row(name).getByTestId("structure-delete").click();
    const dialog = this.page.getByTestId("structure-delete-dialog");
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** The look-through figures of an asset: its effective share and the value of it. */
  async figuresOf(asset: string): Promise<{ share: string; value: string }> {
    const row = this.asset(asset);
    // Intl writes no-break spaces ("30 %", "300.000,00 €"): compare with plain ones.
    const text = async (id: string) => ((await row.getByTestId(id).textContent()) ?? "").replace(/\s+/g, " ").trim();
    return { share: await text("asset-effective-share"), value: await text("asset-effective-value") };
  }
}

export const SPANISH_LABELS = {
  name: "Nombre",
  type: "Tipo de estructura",
  country: "País",
  state: "Provincia o estado",
  ownership: "Porcentaje de propiedad",
  parent: "Estructura propietaria",
};

export const ENGLISH_LABELS = {
  name: "Name",
  type: "Structure type",
  country: "Country",
  state: "State or province",
  ownership: "Ownership percentage",
  parent: "Parent structure",
};
