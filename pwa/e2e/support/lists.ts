// Lists as a person reads them, for the focus checks (ui/focusKeeper.ts: a row that goes away hands
// focus to the row now in its place).
import { expect, type Locator } from "@playwright/test";

/** The name shown after `name` among `names` (each row's name element), or, for the last, before
 * it: the row that takes its place when it goes. */
export async function neighbourOf(names: Locator, name: string): Promise<string> {
  const order = await names.allTextContents();
  const at = order.indexOf(name);
  expect(at, `${name} in ${order.join(", ")}`).toBeGreaterThanOrEqual(0);
  const neighbour = order[at + 1] ?? order[at - 1];
  if (neighbour === undefined) throw new Error(`${name} is the only row`);
  return neighbour;
}
