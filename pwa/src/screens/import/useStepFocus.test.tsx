// The import's steps take the focus as they come, not when the screen first shows.
import { render } from "@testing-library/react";
import { expect, test } from "vitest";
import { useStepFocus } from "./useStepFocus";

function Steps({ step }: { step: "file" | "mapping" | "preview" }) {
  const root = useStepFocus(step);
  return (
    <div ref={root}>
      <button type="button">{step === "mapping" ? "Leer el archivo" : "Elegir"}</button>
      {step === "file" && <section data-step-focus="" tabIndex={-1} aria-label="Archivo" />}
      {step === "mapping" && <section data-step-focus="" tabIndex={-1} aria-label="Columnas" />}
      {step === "preview" && <section data-step-focus="" tabIndex={-1} aria-label="Vista previa" />}
    </div>
  );
}

test("each new step's marked element takes the focus; the first render leaves it alone", () => {
  const { rerender, getByRole } = render(<Steps step="file" />);
  expect(document.activeElement).toBe(document.body);
  rerender(<Steps step="mapping" />);
  expect(document.activeElement).toBe(getByRole("region", { name: "Columnas" }));
  getByRole("button").focus();
  rerender(<Steps step="preview" />);
  expect(document.activeElement).toBe(getByRole("region", { name: "Vista previa" }));
  // The same step again (a re-render) does not take the focus from where the person put it.
  getByRole("button").focus();
  rerender(<Steps step="preview" />);
  expect(document.activeElement).toBe(getByRole("button"));
});
