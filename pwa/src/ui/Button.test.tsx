import { fireEvent, screen } from "@testing-library/react";
import { Save } from "lucide-react";
import { describe, expect, test, vi } from "vitest";
import { Button, IconButton, buttonClass } from "./Button";
import { renderWithI18n } from "./testing";

describe("Button", () => {
  test("is type=button unless told otherwise, and runs onClick", () => {
    const onClick = vi.fn();
    renderWithI18n(<Button onClick={onClick}>Guardar</Button>);
    const button = screen.getByRole("button", { name: "Guardar" });
    expect(button.getAttribute("type")).toBe("button");
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  test("while loading it keeps its name, says aria-busy, ignores clicks and does not submit its form", () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    renderWithI18n(
      <form onSubmit={onSubmit}>
        <Button type="submit" variant="primary" loading onClick={onClick}>
          Guardar
        </Button>
      </form>,
    );
    const button = screen.getByRole("button", { name: "Guardar" });
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button.getAttribute("aria-disabled")).toBe("true");
    // Not natively disabled: the focus stays on it while busy.
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test("a loading text replaces the name while busy and both texts stay rendered (the width is the wider one)", () => {
    const { rerender } = renderWithI18n(
      <Button loadingText="Guardando…" icon={<Save size={16} />}>
        Guardar
      </Button>,
    );
    expect(screen.getByRole("button").textContent).toContain("Guardando…");
    expect(screen.getByRole("button", { name: "Guardar" })).toBeTruthy();
    rerender(
      <Button loading loadingText="Guardando…" icon={<Save size={16} />}>
        Guardar
      </Button>,
    );
    const busy = screen.getByRole("button", { name: "Guardando…" });
    expect(busy.textContent).toContain("Guardar");
    expect(busy.textContent).toContain("Guardando…");
  });

  test("variants and sizes are classes of one look that links can share", () => {
    const primary = buttonClass({ variant: "primary", size: "sm", block: true });
    const plain = buttonClass();
    expect(primary.split(" ").length).toBe(4);
    expect(plain.split(" ").length).toBe(2);
    expect(primary).not.toBe(plain);
  });

  test("IconButton is named by its label", () => {
    const onClick = vi.fn();
    renderWithI18n(<IconButton label="Eliminar" icon={<Save size={16} />} onClick={onClick} />);
    fireEvent.click(screen.getByRole("button", { name: "Eliminar" }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
