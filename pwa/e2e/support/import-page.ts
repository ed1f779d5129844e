// Page model of the statement import screen (/import?assetId=<id>).
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { REPO_ROOT } from "./server";

/** The golden statement files of the parsers' tests (pwa/src/import/testdata). */
export const STATEMENT_FILES = path.join(REPO_ROOT, "pwa", "src", "import", "testdata");

export class ImportPage {
  readonly root: Locator;
  readonly file: Locator;
  readonly preview: Locator;
  readonly balances: Locator;
  readonly summary: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("import-screen");
    this.file = page.getByTestId("import-file");
    this.preview = page.getByTestId("import-preview");
    this.balances = page.getByTestId("import-balances");
    this.summary = page.getByTestId("import-summary");
    this.error = page.getByTestId("import-error");
  }

  async open(assetId?: string): Promise<void> {
    await this.page.goto(assetId ? `/import?assetId=${assetId}` : "/import");
    await expect(this.root).toBeVisible();
  }

  /** Chooses one of the golden files and waits for its preview. */
  async choose(name: string): Promise<void> {
    await this.file.setInputFiles(path.join(STATEMENT_FILES, name));
    await expect(this.preview).toBeVisible();
  }

  fact(id: string): Locator {
    return this.preview.getByTestId(`fact-${id}`).locator("dd");
  }

  /** The plan of each balance row ("create", "duplicate", …), in order. */
  async plans(): Promise<string[]> {
    return this.balances.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-plan") ?? ""));
  }

  flow(name: string): Locator {
    return this.page.getByTestId("import-recurring").getByRole("checkbox", { name });
  }

  async submit(): Promise<void> {
    await this.page.getByTestId("import-submit").click();
    await expect(this.summary).toBeVisible();
  }
}
