import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, test, vi } from "vitest";
import { Button } from "./Button";
import { AlertDialog, Dialog, DialogClose, confirmationMatches } from "./Dialog";
import { renderWithI18n } from "./testing";

describe("confirmationMatches", () => {
  test.each([
    ["ELIMINAR", "ELIMINAR", {}, true],
    ["  ELIMINAR ", "ELIMINAR", {}, true],
    ["eliminar", "ELIMINAR", {}, false],
    ["Ana@Example.com", "ana@example.com", { ignoreCase: true }, true],
    ["", "", {}, false],
    ["   ", " ", {}, false],
    ["ELIMINA", "ELIMINAR", {}, false],
  ])("%j against %j (%j) → %s", (typed, expected, options, result) => {
    expect(confirmationMatches(typed, expected, options)).toBe(result);
  });
});

describe("AlertDialog with type-to-confirm", () => {
  function Harness({ onConfirm }: { onConfirm: () => void }) {
    const [open, setOpen] = useState(true);
    return (
      <AlertDialog
        open={open}
        onOpenChange={setOpen}
        title="¿Eliminar el espacio «Familia»?"
        description="Se borrarán todos sus registros."
        confirmLabel="Eliminar espacio"
        confirmText="Familia"
        onConfirm={onConfirm}
      />
    );
  }

  test("the confirm button stays disabled until the text matches, then confirms", async () => {
    const onConfirm = vi.fn();
    renderWithI18n(<Harness onConfirm={onConfirm} />);
    const dialog = screen.getByRole("alertdialog", { name: "¿Eliminar el espacio «Familia»?" });
    expect(dialog.getAttribute("aria-describedby")).toBeTruthy();
    const confirm = screen.getByRole("button", { name: "Eliminar espacio" }) as HTMLButtonElement;
    const field = screen.getByRole("textbox", { name: "Confirmación" });
    // The field has the focus and the hint says what to type.
    expect(document.activeElement).toBe(field);
    expect(screen.getByText("Escribe «Familia» para confirmar.")).toBeTruthy();
    expect(confirm.disabled).toBe(true);

    fireEvent.change(field, { target: { value: "Famili" } });
    expect(confirm.disabled).toBe(true);
    // Enter in the field does not confirm while it does not match.
    await act(async () => fireEvent.submit(field.closest("form")!));
    expect(onConfirm).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: "Familia" } });
    expect(confirm.disabled).toBe(false);
    await act(async () => fireEvent.submit(field.closest("form")!));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  test("cancel closes it", async () => {
    renderWithI18n(<Harness onConfirm={() => {}} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancelar" })));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});

describe("Dialog", () => {
  test("opens from its trigger labelled by its title, focuses the marked field, closes and returns focus", async () => {
    renderWithI18n(
      <Dialog
        trigger={<Button>Invitar</Button>}
        title="Invitar a una persona"
        footer={
          <DialogClose>
            <Button>Cancelar</Button>
          </DialogClose>
        }
      >
        <input aria-label="Correo" data-autofocus="" />
      </Dialog>,
      "es",
    );
    const trigger = screen.getByRole("button", { name: "Invitar" });
    await act(async () => fireEvent.click(trigger));
    const dialog = screen.getByRole("dialog", { name: "Invitar a una persona" });
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Correo" }));
    expect(screen.getByRole("button", { name: "Cerrar" })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancelar" })));
    expect(dialog.isConnected).toBe(false);
    // Radix's focus scope hands focus back in a zero-delay timer after it unmounts.
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });
});
