import { act, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { describe, expect, test, vi } from "vitest";
import { Combobox, type ComboboxOption } from "./Combobox";
import { Field } from "./Field";
import { foldText } from "./search";
import { renderWithI18n } from "./testing";

const COUNTRIES: ComboboxOption[] = [
  { value: "AR", label: "Argentina" },
  { value: "BO", label: "Bolivia" },
  { value: "ES", label: "España" },
  { value: "MX", label: "México" },
  { value: "PE", label: "Perú" },
  { value: "PY", label: "Paraguay" },
  { value: "US", label: "Estados Unidos" },
];

function Harness({ initial = "", onChange }: { initial?: string; onChange?: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <Field label="País">
        <Combobox
          options={COUNTRIES}
          value={value}
          onChange={(v) => {
            setValue(v);
            onChange?.(v);
          }}
        />
      </Field>
      <span data-testid="value">{value}</span>
    </>
  );
}

const input = () => screen.getByRole("combobox", { name: "País" }) as HTMLInputElement;
const key = (k: string, init: Partial<KeyboardEventInit> = {}) => fireEvent.keyDown(input(), { key: k, ...init });
const active = () => {
  const id = input().getAttribute("aria-activedescendant");
  return id ? document.getElementById(id)?.textContent : null;
};
const shownOptions = () => screen.queryAllByRole("option").map((o) => o.textContent);

describe("foldText", () => {
  test("drops accents and case", () => {
    expect(foldText("Perú")).toBe("peru");
    expect(foldText("MÉXICO")).toBe("mexico");
    expect(foldText("España")).toBe("espana");
    expect(foldText("Côte d’Ivoire")).toBe("cote d’ivoire");
  });
});

describe("Combobox", () => {
  test("is an ARIA combobox labelled by its Field, with a listbox only while open", () => {
    renderWithI18n(<Harness />);
    const box = input();
    expect(box.getAttribute("aria-expanded")).toBe("false");
    expect(box.getAttribute("aria-autocomplete")).toBe("list");
    expect(screen.queryByRole("listbox")).toBeNull();
    key("ArrowDown");
    expect(box.getAttribute("aria-expanded")).toBe("true");
    const listbox = screen.getByRole("listbox", { name: "País" });
    expect(box.getAttribute("aria-controls")).toBe(listbox.id);
    expect(shownOptions()).toHaveLength(COUNTRIES.length);
  });

  test("typing filters without accents or case: 'peru' finds Perú, 'MEX' finds México", () => {
    renderWithI18n(<Harness />);
    fireEvent.change(input(), { target: { value: "peru" } });
    expect(shownOptions()).toEqual(["Perú"]);
    fireEvent.change(input(), { target: { value: "MEX" } });
    expect(shownOptions()).toEqual(["México"]);
    // Starts-with first, then word starts, then anywhere: "es" → España, Estados Unidos, then none containing.
    fireEvent.change(input(), { target: { value: "es" } });
    expect(shownOptions()).toEqual(["España", "Estados Unidos"]);
    // The code finds it too.
    fireEvent.change(input(), { target: { value: "py" } });
    expect(shownOptions()).toEqual(["Paraguay"]);
  });

  test("nothing matches: no options, 'Sin resultados' is shown and announced", () => {
    renderWithI18n(<Harness />);
    fireEvent.change(input(), { target: { value: "zzz" } });
    expect(shownOptions()).toEqual([]);
    expect(screen.getByRole("status").textContent).toBe("Sin resultados");
    expect(input().hasAttribute("aria-activedescendant")).toBe(false);
  });

  test("the keyboard alone picks: arrows, Home/End, PageDown, Enter", () => {
    const onChange = vi.fn();
    renderWithI18n(<Harness onChange={onChange} />);
    key("ArrowDown");
    expect(active()).toBe("Argentina");
    key("ArrowDown");
    key("ArrowDown");
    expect(active()).toBe("España");
    key("ArrowUp");
    expect(active()).toBe("Bolivia");
    key("End");
    expect(active()).toBe("Estados Unidos");
    key("ArrowDown"); // stays on the last
    expect(active()).toBe("Estados Unidos");
    key("Home");
    expect(active()).toBe("Argentina");
    key("PageDown");
    expect(active()).toBe("Estados Unidos");
    key("PageUp");
    expect(active()).toBe("Argentina");
    key("ArrowDown");
    key("Enter");
    expect(onChange).toHaveBeenCalledWith("BO");
    expect(input().value).toBe("Bolivia");
    expect(input().getAttribute("aria-expanded")).toBe("false");
  });

  test("typing then Enter picks the first match", () => {
    renderWithI18n(<Harness />);
    fireEvent.change(input(), { target: { value: "bol" } });
    key("Enter");
    expect(screen.getByTestId("value").textContent).toBe("BO");
  });

  test("Escape closes without changing the value; a second Escape restores the text", () => {
    renderWithI18n(<Harness initial="PE" />);
    expect(input().value).toBe("Perú");
    fireEvent.change(input(), { target: { value: "arg" } });
    key("Escape");
    expect(input().getAttribute("aria-expanded")).toBe("false");
    expect(input().value).toBe("arg");
    key("Escape");
    expect(input().value).toBe("Perú");
    expect(screen.getByTestId("value").textContent).toBe("PE");
  });

  test("opening shows the selected option as active", () => {
    renderWithI18n(<Harness initial="MX" />);
    key("ArrowDown");
    expect(active()).toBe("México");
    expect(screen.getAllByRole("option").find((o) => o.getAttribute("aria-selected") === "true")?.textContent).toBe("México");
  });

  test("a click picks; emptying the text and leaving clears the value", () => {
    renderWithI18n(<Harness initial="ES" />);
    fireEvent.click(input());
    fireEvent.click(screen.getByRole("option", { name: "Perú" }));
    expect(screen.getByTestId("value").textContent).toBe("PE");
    fireEvent.change(input(), { target: { value: "" } });
    fireEvent.blur(input());
    expect(screen.getByTestId("value").textContent).toBe("");
  });

  test("a value that is none of the options shows as not available, and picking or clearing replaces it", () => {
    const { unmount } = renderWithI18n(<Harness initial="XX" />);
    expect(input().value).toBe("No disponible");
    fireEvent.click(input());
    fireEvent.click(screen.getByRole("option", { name: "Perú" }));
    expect(screen.getByTestId("value").textContent).toBe("PE");
    expect(input().value).toBe("Perú");
    unmount();

    renderWithI18n(<Harness initial="XX" />);
    fireEvent.change(input(), { target: { value: "" } });
    fireEvent.blur(input());
    expect(screen.getByTestId("value").textContent).toBe("");
    expect(input().value).toBe("");
  });

  test("while its options are still empty (loading), a value shows nothing; a caller may name it", () => {
    const id = "0190a000-0000-7000-8000-000000000001";
    const field = () => screen.getByRole("combobox", { name: "Activo" }) as HTMLInputElement;
    const { unmount } = renderWithI18n(<Combobox aria-label="Activo" options={[]} value={id} />);
    expect(field().value).toBe("");
    unmount();
    renderWithI18n(<Combobox aria-label="Activo" options={COUNTRIES} value={id} unavailableText="Activo eliminado" />);
    expect(field().value).toBe("Activo eliminado");
  });

  test("250 options filter to the right ones", () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ value: `C${i}`, label: `Provincia ${i} Ávila` }));
    function Many() {
      const [v, setV] = useState("");
      return <Combobox aria-label="Provincia" options={many} value={v} onChange={setV} />;
    }
    renderWithI18n(<Many />);
    const box = screen.getByRole("combobox", { name: "Provincia" });
    fireEvent.change(box, { target: { value: "avila" } });
    expect(screen.getAllByRole("option")).toHaveLength(250);
    fireEvent.change(box, { target: { value: "provincia 24" } });
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Provincia 24 Ávila", ...Array.from({ length: 10 }, (_, i) => `Provincia ${240 + i} Ávila`)]);
  });

  test("works inside a react-hook-form Controller", async () => {
    const onDone = vi.fn();
    function Form({ done }: { done: (values: unknown) => void }) {
      const { control, handleSubmit } = useForm({ defaultValues: { country: "AR" } });
      return (
        <form onSubmit={handleSubmit(done)}>
          <Field label="País">
            <Controller name="country" control={control} render={({ field }) => <Combobox {...field} options={COUNTRIES} />} />
          </Field>
          <button type="submit">Enviar</button>
        </form>
      );
    }
    renderWithI18n(<Form done={onDone} />);
    expect(input().value).toBe("Argentina");
    fireEvent.change(input(), { target: { value: "peru" } });
    key("Enter");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Enviar" })));
    expect(onDone.mock.calls[0]?.[0]).toEqual({ country: "PE" });
  });
});
