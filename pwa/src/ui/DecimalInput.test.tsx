import { act, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { describe, expect, test, vi } from "vitest";
import type { Language } from "../i18n/i18n";
import { DateInput } from "./DateInput";
import { DecimalInput, PercentInput } from "./DecimalInput";
import { Field } from "./Field";
import { MoneyInput } from "./MoneyInput";
import { renderWithI18n } from "./testing";

function Inner({ initial, maxDecimals }: { initial: string; maxDecimals: number | undefined }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <Field label="Importe">
        <DecimalInput value={value} onChange={setValue} maxDecimals={maxDecimals} />
      </Field>
      <span data-testid="value">{JSON.stringify(value)}</span>
    </>
  );
}

function Harness({ initial = "", language = "es", maxDecimals }: { initial?: string; language?: Language; maxDecimals?: number }) {
  return renderWithI18n(<Inner initial={initial} maxDecimals={maxDecimals} />, language);
}

const box = (name = "Importe") => screen.getByRole("textbox", { name }) as HTMLInputElement;
const formValue = () => JSON.parse(screen.getByTestId("value").textContent!) as string;
function type(text: string, name?: string) {
  const input = box(name);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
}

describe("DecimalInput", () => {
  test("Spanish typing gives the decimal string; away from focus it is grouped", () => {
    Harness({ language: "es" });
    type("12345,5");
    expect(formValue()).toBe("12345.5");
    expect(box().value).toBe("12345,5");
    fireEvent.blur(box());
    expect(box().value).toBe("12.345,5");
    // Focus again: the number to edit, without grouping.
    fireEvent.focus(box());
    expect(box().value).toBe("12345,5");
  });

  test("entering with Tab keeps the whole text selected, so typing replaces the number", () => {
    Harness({ language: "es", initial: "12345.5" });
    const input = box();
    expect(input.value).toBe("12.345,5");
    // What Tab does: the browser selects the whole text, then the input gets focus.
    input.setSelectionRange(0, input.value.length);
    act(() => input.focus());
    expect(input.value).toBe("12345,5");
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 7]);
    input.blur();
    // A click places the caret: nothing is selected for the reader.
    input.setSelectionRange(2, 2);
    act(() => input.focus());
    expect(input.value).toBe("12345,5");
    expect(input.selectionStart).toBe(input.selectionEnd);
  });

  test("a paste of the English format into a Spanish field still means 1234.56", () => {
    Harness({ language: "es" });
    type("1,234.56");
    expect(formValue()).toBe("1234.56");
    type("1.234,56");
    expect(formValue()).toBe("1234.56");
  });

  test("English shows English grouping", () => {
    Harness({ language: "en", initial: "1234567.5" });
    expect(box().value).toBe("1,234,567.5");
    fireEvent.focus(box());
    expect(box().value).toBe("1234567.5");
  });

  test("garbage reaches the form as typed (a schema refuses it), and after leaving the field says why", () => {
    Harness({ language: "es" });
    type("12abc");
    expect(formValue()).toBe("12abc");
    // Not while typing…
    expect(box().getAttribute("aria-invalid")).toBeNull();
    fireEvent.blur(box());
    // …but once the reader left the field.
    expect(box().getAttribute("aria-invalid")).toBe("true");
    const error = document.getElementById(box().getAttribute("aria-describedby")!.split(" ").at(-1)!);
    expect(error?.textContent).toBe("Escribe un número, por ejemplo 1.234,56.");
    // Fixed: the error goes at once.
    type("12");
    expect(formValue()).toBe("12");
    expect(box().getAttribute("aria-invalid")).toBeNull();
    expect(document.querySelector("[data-part=error]")).toBeNull();
  });

  test("too many decimals names the limit", () => {
    Harness({ language: "en", maxDecimals: 2 });
    type("1.234");
    fireEvent.blur(box());
    expect(document.querySelector("[data-part=error]")?.textContent).toBe("At most 2 decimal places.");
  });

  test("a value set from outside (a form reset) is shown", () => {
    function Outside() {
      const [value, setValue] = useState("1.5");
      return (
        <>
          <DecimalInput aria-label="Cantidad" value={value} onChange={setValue} />
          <button type="button" onClick={() => setValue("98765.4321")}>
            Reset
          </button>
        </>
      );
    }
    renderWithI18n(<Outside />, "es");
    expect(box("Cantidad").value).toBe("1,5");
    fireEvent.click(screen.getByRole("button", { name: "Reset" }));
    expect(box("Cantidad").value).toBe("98.765,4321");
  });

  test("react-hook-form Controller: the submitted value is a decimal string, never a number", async () => {
    const onDone = vi.fn();
    function Form({ done }: { done: (values: Record<string, unknown>) => void }) {
      const { control, handleSubmit } = useForm({ defaultValues: { units: "", share: "50" } });
      return (
        <form onSubmit={handleSubmit(done)}>
          <Field label="Unidades">
            <Controller name="units" control={control} render={({ field }) => <DecimalInput {...field} />} />
          </Field>
          <Field label="Participación">
            <Controller name="share" control={control} render={({ field }) => <PercentInput {...field} />} />
          </Field>
          <button type="submit">Guardar</button>
        </form>
      );
    }
    renderWithI18n(<Form done={onDone} />, "es");
    type("1.000.000,25", "Unidades");
    type("12,5", "Participación");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Guardar" })));
    const submitted = onDone.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(submitted).toEqual({ units: "1000000.25", share: "12.5" });
    expect(typeof submitted.units).toBe("string");
  });
});

describe("MoneyInput", () => {
  test("an amount with a currency select named in the reader's language; shown with the currency's decimals", () => {
    function Money() {
      const [amount, setAmount] = useState("");
      const [currency, setCurrency] = useState("EUR");
      return (
        <>
          <Field label="Valor actual">
            <MoneyInput value={amount} onChange={setAmount} currency={currency} onCurrencyChange={setCurrency} />
          </Field>
          <span data-testid="value">{JSON.stringify(`${amount} ${currency}`)}</span>
        </>
      );
    }
    renderWithI18n(<Money />, "es");
    type("1234,5", "Valor actual");
    fireEvent.blur(box("Valor actual"));
    expect(box("Valor actual").value).toBe("1.234,50");
    const select = screen.getByRole("combobox", { name: "Moneda" }) as HTMLSelectElement;
    expect(select.value).toBe("EUR");
    expect(select.selectedOptions[0]?.textContent).toMatch(/^EUR · euro$/i);
    fireEvent.change(select, { target: { value: "JPY" } });
    expect(formValue()).toBe("1234.5 JPY");
  });

  test("a pasted amount with its currency symbol, as the app shows it, is read", () => {
    function Money({ currency }: { currency: string }) {
      const [amount, setAmount] = useState("");
      return (
        <>
          <Field label="Valor actual">
            <MoneyInput value={amount} onChange={setAmount} currency={currency} />
          </Field>
          <span data-testid="value">{JSON.stringify(amount)}</span>
        </>
      );
    }
    const es = renderWithI18n(<Money currency="EUR" />, "es");
    type("1.234,56\u00a0€", "Valor actual");
    expect(formValue()).toBe("1234.56");
    es.unmount();
    renderWithI18n(<Money currency="USD" />, "en");
    type("$1,234.56", "Valor actual");
    expect(formValue()).toBe("1234.56");
  });

  test("too many whole digits is said as such, not as the schema's format (which named a separator)", () => {
    function Money() {
      const [amount, setAmount] = useState("");
      return (
        <Field label="Valor actual">
          <MoneyInput value={amount} onChange={setAmount} currency="EUR" />
        </Field>
      );
    }
    renderWithI18n(<Money />, "es");
    type("1.234.567.890.123.456", "Valor actual");
    fireEvent.blur(box("Valor actual"));
    expect(box("Valor actual").getAttribute("aria-invalid")).toBe("true");
    expect(document.querySelector("[data-part=error]")?.textContent).toBe("El número es demasiado largo.");
    // 15 whole digits are an amount.
    type("123.456.789.012.345,5", "Valor actual");
    fireEvent.blur(box("Valor actual"));
    expect(document.querySelector("[data-part=error]")).toBeNull();
  });

  test("without onCurrencyChange the currency is fixed", () => {
    renderWithI18n(<MoneyInput aria-label="Importe" value="10" onChange={() => {}} currency="USD" />, "en");
    expect(screen.queryByRole("combobox")).toBeNull();
    expect(screen.getByText("USD")).toBeTruthy();
    expect(box().value).toBe("10.00");
  });
});

describe("DateInput", () => {
  test("typed day first, held as ISO; an impossible date says so after leaving", () => {
    function Dates() {
      const [value, setValue] = useState("");
      return (
        <>
          <Field label="Fecha de compra">
            <DateInput value={value} onChange={setValue} />
          </Field>
          <span data-testid="value">{JSON.stringify(value)}</span>
        </>
      );
    }
    renderWithI18n(<Dates />, "es");
    type("1/2/2024", "Fecha de compra");
    expect(formValue()).toBe("2024-02-01");
    fireEvent.blur(box("Fecha de compra"));
    expect(box("Fecha de compra").value).toBe("01/02/2024");
    type("31/02/2024", "Fecha de compra");
    fireEvent.blur(box("Fecha de compra"));
    expect(formValue()).toBe("31/02/2024");
    expect(document.querySelector("[data-part=error]")?.textContent).toBe("Escribe una fecha válida, por ejemplo 31/12/2024.");
  });
});
