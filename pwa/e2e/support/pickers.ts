// Picking from the UI kit's two list controls the way a person does, and waiting until the pick has
// settled before the next step.
//
// Why the waits: after a pointer pick in a Select, Radix moves focus back to the Select's button a
// moment later (after the list unmounts; seconds later in a tab running at one frame a second, see
// SyncTestPage.beside). A test that types into a Combobox during that moment loses its text to the
// blur (the Combobox drops an unpicked query on blur, as it should), and its Enter then lands on a
// closed, empty Combobox: the form's implicit submission. That hung the flows and tasks tests
// without traces: the form was saved without its asset and closed, and the test waited for a
// submit button that was gone.
import { expect, type Locator } from "@playwright/test";

/** Opens a Select (Radix), clicks the option named `name`, and waits until the list has closed and
 * focus is back on the Select's button. */
export async function chooseOption(select: Locator, name: string): Promise<void> {
  await select.click();
  const listbox = select.page().getByRole("listbox");
  await listbox.getByRole("option", { name, exact: true }).click();
  await expect(listbox).toBeHidden();
  await expect(select).toBeFocused();
}

/** Types `text` into a Combobox, waits until it lists at least one match, and picks the first
 * with Enter (the list closes). */
export async function pickFirstMatch(combobox: Locator, text: string): Promise<void> {
  await combobox.fill(text);
  // aria-controls names the list only while it shows options.
  await expect(combobox).toHaveAttribute("aria-controls", /.+/);
  await combobox.press("Enter");
  await expect(combobox).toHaveAttribute("aria-expanded", "false");
}
