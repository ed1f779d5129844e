import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, test, vi } from "vitest";
import { Button } from "./Button";
import { Combobox } from "./Combobox";
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

describe("a form dialog with changes (dirty)", () => {
  function Form({ controlled = true }: { controlled?: boolean }) {
    const [open, setOpen] = useState(false);
    const [text, setText] = useState("");
    const body = <input aria-label="Instrucción" data-autofocus="" value={text} onChange={(e) => setText(e.target.value)} />;
    const footer = (
      <DialogClose>
        <Button>Cancelar</Button>
      </DialogClose>
    );
    return controlled ? (
      <>
        <Button onClick={() => setOpen(true)}>Añadir</Button>
        <Dialog open={open} onOpenChange={setOpen} title="Instrucción" dirty={text !== ""} footer={footer}>
          {body}
        </Dialog>
      </>
    ) : (
      <Dialog trigger={<Button>Añadir</Button>} title="Instrucción" dirty={text !== ""} footer={footer}>
        {body}
      </Dialog>
    );
  }

  async function openAndType(text: string) {
    const opener = screen.getByRole("button", { name: "Añadir" });
    act(() => opener.focus());
    await act(async () => fireEvent.click(opener));
    const field = screen.getByRole("textbox", { name: "Instrucción" });
    if (text) fireEvent.change(field, { target: { value: text } });
    return { opener, field, dialog: screen.getByRole("dialog", { name: "Instrucción" }) };
  }

  const escape = (element: Element) => fireEvent.keyDown(element, { key: "Escape" });
  // Radix listens for a pointerdown outside on the document (from a tick after opening) and acts on
  // the click that follows it.
  const tick = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  const clickOutside = async () => {
    await tick();
    await act(async () => {
      fireEvent.pointerDown(document.body, { button: 0, pointerType: "mouse" });
      fireEvent.click(document.body, { button: 0 });
    });
    await tick();
  };

  test("Escape with nothing typed closes it at once", async () => {
    renderWithI18n(<Form />, "es");
    const { field, dialog } = await openAndType("");
    await act(async () => escape(field));
    expect(dialog.isConnected).toBe(false);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  test("Escape with changes asks; «Seguir editando» keeps the dialog and what was typed", async () => {
    renderWithI18n(<Form />, "es");
    const { field, dialog } = await openAndType("Vender el piso");
    await act(async () => escape(field));
    const ask = screen.getByRole("alertdialog", { name: "¿Descartar los cambios?" });
    expect(dialog.isConnected).toBe(true);
    // Focus starts on the choice that loses nothing.
    const keep = within(ask).getByRole("button", { name: "Seguir editando" });
    await waitFor(() => expect(document.activeElement).toBe(keep));
    await act(async () => fireEvent.click(keep));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(dialog.isConnected).toBe(true);
    expect((screen.getByRole("textbox", { name: "Instrucción" }) as HTMLInputElement).value).toBe("Vender el piso");
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  test("Escape inside the question closes only the question", async () => {
    renderWithI18n(<Form />, "es");
    const { field, dialog } = await openAndType("Vender el piso");
    await act(async () => escape(field));
    const ask = screen.getByRole("alertdialog");
    await act(async () => escape(within(ask).getByRole("button", { name: "Seguir editando" })));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(dialog.isConnected).toBe(true);
  });

  test("a click outside with changes asks; «Descartar» closes the dialog and focus goes back to its opener", async () => {
    renderWithI18n(<Form />, "es");
    const { opener, dialog } = await openAndType("Vender el piso");
    await clickOutside();
    expect(dialog.isConnected).toBe(true);
    const ask = screen.getByRole("alertdialog", { name: "¿Descartar los cambios?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Descartar" })));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(dialog.isConnected).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  test("a click outside with nothing typed closes it at once", async () => {
    renderWithI18n(<Form />, "es");
    const { dialog } = await openAndType("");
    await clickOutside();
    expect(dialog.isConnected).toBe(false);
  });

  test("Cancel is an explicit choice: it closes without asking", async () => {
    renderWithI18n(<Form />, "es");
    const { dialog } = await openAndType("Vender el piso");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancelar" })));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(dialog.isConnected).toBe(false);
  });

  test("an uncontrolled dialog (a trigger) closes on «Descartar» too; the question is translated", async () => {
    renderWithI18n(<Form controlled={false} />, "en");
    const { field, dialog } = await openAndType("Sell the flat");
    await act(async () => escape(field));
    const ask = screen.getByRole("alertdialog", { name: "Discard your changes?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Discard" })));
    expect(dialog.isConnected).toBe(false);
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

describe("a combobox in a dialog", () => {
  function Picker() {
    const [open, setOpen] = useState(true);
    const [value, setValue] = useState("");
    return open ? (
      <Dialog open onOpenChange={setOpen} title="Tarea">
        <Combobox aria-label="Activo" options={[{ value: "a", label: "Piso de Valencia" }]} value={value} onChange={setValue} />
      </Dialog>
    ) : null;
  }

  test("Escape on its open list closes the list only; a second Escape closes the dialog", async () => {
    renderWithI18n(<Picker />, "es");
    const dialog = screen.getByRole("dialog", { name: "Tarea" });
    const input = within(dialog).getByRole("combobox", { name: "Activo" });
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(screen.getByRole("listbox")).toBeTruthy();
    await act(async () => fireEvent.keyDown(input, { key: "Escape" }));
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(dialog.isConnected).toBe(true);
    await act(async () => fireEvent.keyDown(input, { key: "Escape" }));
    expect(dialog.isConnected).toBe(false);
  });
});
