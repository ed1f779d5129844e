// Test helper for the kit's tests: render inside a real i18next instance of the app.
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import { createI18n, type Language } from "../i18n/i18n";

export function renderWithI18n(ui: ReactElement, language: Language = "es"): RenderResult {
  const i18n = createI18n({ lng: language });
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}
