import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, test, vi } from "vitest";
import { Button } from "./Button";
import { AlertDialog, Dialog, DialogClose, confirmationMatches } from "./Dialog";
import { DropdownMenu, MenuItem } from "./DropdownMenu";
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

describe("focus back to what opened a dialog without a Trigger", () => {
  function Opened({ by }: { by: "button" | "menu" }) {
    const [open, setOpen] = useState(false);
    return (
      <>
        {by === "button" ? (
          <Button onClick={() => setOpen(true)}>Nuevo flujo</Button>
        ) : (
          <DropdownMenu trigger={<Button>Acciones</Button>}>
            <MenuItem onSelect={() => setOpen(true)}>Editar</MenuItem>
          </DropdownMenu>
        )}
        <Dialog
          open={open}
          onOpenChange={setOpen}
          title="Flujo"
          footer={
            <DialogClose>
              <Button>Cancelar</Button>
            </DialogClose>
          }
        >
          <input aria-label="Nombre" data-autofocus="" />
        </Dialog>
      </>
    );
  }

  test("a dialog opened by a button's handler gives focus back to that button", async () => {
    renderWithI18n(<Opened by="button" />, "es");
    const opener = screen.getByRole("button", { name: "Nuevo flujo" });
    act(() => opener.focus());
    await act(async () => fireEvent.click(opener));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Nombre" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancelar" })));
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  test("a dialog opened from a menu's item gives focus back to the menu's button, even when the menu was opened by pointer", async () => {
    renderWithI18n(<Opened by="menu" />, "es");
    const menuButton = screen.getByRole("button", { name: "Acciones" });
    await act(async () => {
      fireEvent.pointerDown(menuButton, { button: 0, pointerType: "mouse" });
    });
    const menu = await screen.findByRole("menu");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Editar" })));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Nombre" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancelar" })));
    await waitFor(() => expect(document.activeElement).toBe(menuButton));
  });
});
