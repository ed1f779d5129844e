import { act, fireEvent, screen } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { describe, expect, test, vi } from "vitest";
import { CodeInput } from "./CodeInput";
import { Field } from "./Field";
import { NativeSelect } from "./NativeSelect";
import { Stepper } from "./Stepper";
import { TextArea } from "./TextArea";
import { TextInput } from "./TextInput";
import { renderWithI18n } from "./testing";

function describedTexts(control: HTMLElement): string[] {
  return (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `<missing ${id}>`);
}

describe("Field", () => {
  test("labels its control and links the hint and the error", () => {
    renderWithI18n(
      <Field label="Nombre" hint="Como en tu documento" error="El nombre es obligatorio" required>
        <TextInput name="name" />
      </Field>,
    );
    const input = screen.getByRole("textbox", { name: /Nombre/ });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-required")).toBe("true");
    expect(describedTexts(input)).toEqual(["Como en tu documento", "El nombre es obligatorio"]);
  });

  test("without an error the control is not invalid and only the hint describes it", () => {
    renderWithI18n(
      <Field label="Nombre" hint="Pista">
        <TextInput aria-describedby="own" />
      </Field>,
    );
    const input = screen.getByRole("textbox", { name: "Nombre" });
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.hasAttribute("aria-required")).toBe(false);
    expect(input.getAttribute("aria-describedby")?.split(" ")).toHaveLength(2);
    expect(input.getAttribute("aria-describedby")).toContain("own");
  });

  test("a render prop wires any control", () => {
    renderWithI18n(<Field label="Color" error="Mal">{(control) => <input type="color" {...control} />}</Field>);
    const input = screen.getByLabelText("Color");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(describedTexts(input)).toEqual(["Mal"]);
  });

  test("works with react-hook-form register (the ref reaches the input)", async () => {
    let submitted: unknown;
    function Form() {
      const { register, handleSubmit } = useForm({ defaultValues: { city: "Lima" } });
      return (
        <form onSubmit={handleSubmit((values) => (submitted = values))}>
          <Field label="Ciudad">
            <TextInput {...register("city")} />
          </Field>
          <button type="submit">Enviar</button>
        </form>
      );
    }
    renderWithI18n(<Form />);
    const input = screen.getByRole("textbox", { name: "Ciudad" }) as HTMLInputElement;
    expect(input.value).toBe("Lima");
    fireEvent.change(input, { target: { value: "Cusco" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Enviar" })));
    expect(submitted).toEqual({ city: "Cusco" });
  });
});

describe("TextArea", () => {
  test("counts characters the way the schema does (an emoji is one) and says the limit", () => {
    renderWithI18n(
      <Field label="Nota">
        <TextArea maxChars={140} defaultValue="" />
      </Field>,
    );
    const area = screen.getByRole("textbox", { name: "Nota" });
    fireEvent.change(area, { target: { value: "Hola 👋🏽" } });
    // "Hola " (5) + waving hand + skin tone modifier (2 code points) = 7; UTF-16 length is 9.
    expect(document.querySelector("[data-part=counter]")?.textContent).toBe("7 / 140");
    expect(describedTexts(area)).toContain("7 de 140 caracteres");
  });

  test("past the limit the counter says so", () => {
    renderWithI18n(<TextArea aria-label="Nota" maxChars={3} value="abcd" onChange={() => {}} />, "en");
    const counter = document.querySelector("[data-part=counter]")!;
    expect(counter.textContent).toBe("4 / 3");
    expect(counter.getAttribute("data-over")).toBe("true");
    expect(describedTexts(screen.getByRole("textbox"))).toEqual(["4 of 3 characters"]);
  });

  test("large numbers in the counter are grouped like the reader writes them", () => {
    renderWithI18n(<TextArea aria-label="Texto" maxChars={20000} value={"x".repeat(12345)} onChange={() => {}} />, "en");
    expect(document.querySelector("[data-part=counter]")?.textContent).toBe("12,345 / 20,000");
  });
});

describe("CodeInput", () => {
  test("asks for the numeric keyboard and the received one-time code", () => {
    renderWithI18n(
      <Field label="Código">
        <CodeInput />
      </Field>,
    );
    const input = screen.getByRole("textbox", { name: "Código" });
    expect(input.getAttribute("inputmode")).toBe("numeric");
    expect(input.getAttribute("autocomplete")).toBe("one-time-code");
    expect(input.hasAttribute("maxlength")).toBe(false);
  });

  test.each([
    ["123 456", "123456"],
    ["123-456", "123456"],
    [" 12 34 56 78", "123456"],
    ["abc", ""],
  ])("a paste of %j keeps the digits: %j, and react-hook-form gets them", async (pasted, expected) => {
    let submitted: unknown;
    function Form() {
      const { register, handleSubmit } = useForm({ defaultValues: { code: "" } });
      return (
        <form onSubmit={handleSubmit((values) => (submitted = values))}>
          <Field label="Código">
            <CodeInput {...register("code")} />
          </Field>
          <button type="submit">Verificar</button>
        </form>
      );
    }
    renderWithI18n(<Form />);
    const input = screen.getByRole("textbox", { name: "Código" }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: pasted } });
    expect(input.value).toBe(expected);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Verificar" })));
    expect(submitted).toEqual({ code: expected });
  });
});

describe("Stepper", () => {
  test("marks the current step and says which steps are done or skipped", () => {
    renderWithI18n(<Stepper steps={["Datos", "Seguridad", "Llave", "Activo"]} current={2} skipped={[1]} label="Pasos del alta" />);
    const list = screen.getByRole("list", { name: "Pasos del alta" });
    const items = [...list.querySelectorAll("li")];
    expect(items.map((li) => li.textContent)).toEqual(["Datos (completado)", "–Seguridad (omitido)", "3Llave", "4Activo"]);
    expect(items.map((li) => li.getAttribute("aria-current"))).toEqual([null, null, "step", null]);
  });
});

describe("NativeSelect", () => {
  test("is labelled by its Field and works with register", async () => {
    const onDone = vi.fn();
    function Form({ done }: { done: (values: unknown) => void }) {
      const { register, handleSubmit } = useForm({ defaultValues: { role: "viewer" } });
      return (
        <form onSubmit={handleSubmit(done)}>
          <Field label="Rol" error="Elige un rol">
            <NativeSelect {...register("role")}>
              <option value="viewer">Lector</option>
              <option value="editor">Editor</option>
            </NativeSelect>
          </Field>
          <button type="submit">Enviar</button>
        </form>
      );
    }
    renderWithI18n(<Form done={onDone} />);
    const select = screen.getByRole("combobox", { name: "Rol" });
    expect(select.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(select, { target: { value: "editor" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Enviar" })));
    expect(onDone.mock.calls[0]?.[0]).toEqual({ role: "editor" });
  });

  test("without a Field its label names it", () => {
    renderWithI18n(
      <NativeSelect label="Idioma" compact>
        <option value="es">Español</option>
      </NativeSelect>,
    );
    expect(screen.getByRole("combobox", { name: "Idioma" })).toBeTruthy();
  });
});
