import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { Select } from "./Select";
import { renderWithI18n } from "./testing";

describe("Select", () => {
  test("its button carries the label and every data-* attribute given, and no other prop", () => {
    renderWithI18n(
      <Select
        options={[
          { value: "todo", label: "Pendiente" },
          { value: "done", label: "Hecha" },
        ]}
        value="todo"
        aria-label="Estado de «Revisar la hipoteca»"
        data-testid="task-status"
        data-control="status"
        className="narrow"
      />,
    );
    const button = screen.getByRole("combobox", { name: "Estado de «Revisar la hipoteca»" });
    expect(button.getAttribute("data-testid")).toBe("task-status");
    expect(button.getAttribute("data-control")).toBe("status");
    expect(button.textContent).toContain("Pendiente");
    expect(button.classList.contains("narrow")).toBe(true);
    expect(button.hasAttribute("options")).toBe(false);
  });
});
