import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ScrollRegion } from "./ScrollRegion";

function wide(scrollWidth: number, clientWidth: number) {
  vi.spyOn(HTMLElement.prototype, "scrollWidth", "get").mockReturnValue(scrollWidth);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(clientWidth);
}

const table = (
  <table>
    <caption>Distribución por clase</caption>
    <tbody>
      <tr>
        <td>Inmuebles</td>
      </tr>
    </tbody>
  </table>
);

afterEach(() => vi.restoreAllMocks());

describe("ScrollRegion", () => {
  test("content wider than the box: a focusable region named by the table's caption", () => {
    wide(640, 320);
    render(<ScrollRegion>{table}</ScrollRegion>);
    const region = screen.getByRole("region", { name: "Distribución por clase" });
    expect(region.tabIndex).toBe(0);
  });

  test("without a caption, the label names it", () => {
    wide(640, 320);
    render(
      <ScrollRegion label="Muestra">
        <pre>a very long line</pre>
      </ScrollRegion>,
    );
    expect(screen.getByRole("region", { name: "Muestra" }).tabIndex).toBe(0);
  });

  test("content that fits: a plain box, no tab stop", () => {
    wide(320, 320);
    const { container } = render(<ScrollRegion>{table}</ScrollRegion>);
    expect(screen.queryByRole("region")).toBeNull();
    expect((container.firstChild as HTMLElement).hasAttribute("tabindex")).toBe(false);
  });
});
