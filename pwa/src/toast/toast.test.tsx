import { act, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { toast } from "sonner";
import { afterEach, describe, expect, test } from "vitest";
import { createI18n } from "../i18n/i18n";
import { THEME_STORAGE_KEY } from "../theme/theme";
import { ThemeProvider } from "../theme/ThemeProvider";
import { AppToaster, TOAST_KINDS, dismissToast, notify } from "./toast";

function renderToaster() {
  return render(
    <ThemeProvider matchMedia={() => undefined}>
      <I18nextProvider i18n={createI18n({ lng: "es" })}>
        <AppToaster />
      </I18nextProvider>
    </ThemeProvider>,
  );
}

afterEach(() => {
  act(() => {
    toast.dismiss();
  });
});

describe("AppToaster and notify", () => {
  // First in this file: sonner is loaded once per page, by the first toast.
  test("sonner loads with the first toast: nothing before, and a toast asked for meanwhile still shows and can be dismissed by its id", async () => {
    renderToaster();
    expect(document.querySelector("[data-sonner-toaster]")).toBeNull();
    expect(screen.queryByRole("region")).toBeNull();

    let id: string | number = "";
    act(() => {
      id = notify("success", "Primero", { id: "first-toast" });
    });
    expect(id).toBe("first-toast");
    const item = (await screen.findByText("Primero")).closest("[data-sonner-toast]");
    expect(item?.getAttribute("data-type")).toBe("success");

    // An id is made when the caller gives none, unique per toast.
    let second: string | number = "";
    let third: string | number = "";
    act(() => {
      second = notify("info", "Segundo");
      third = notify("info", "Tercero");
    });
    expect(second).not.toBe(third);
    await screen.findByText("Tercero");
    act(() => {
      dismissToast(second);
    });
    await waitFor(() => expect(screen.queryByText("Segundo")).toBeNull());
    expect(screen.getByText("Tercero")).toBeTruthy();
  });

  test("shows each kind of toast with its type, bottom-right, with a translated close button", async () => {
    renderToaster();
    act(() => {
      notify("success", "Guardado");
    });
    const text = await screen.findByText("Guardado");
    const item = text.closest("[data-sonner-toast]");
    expect(item?.getAttribute("data-type")).toBe("success");
    expect(item?.getAttribute("data-y-position")).toBe("bottom");
    expect(item?.getAttribute("data-x-position")).toBe("right");
    expect(item?.querySelector("[data-close-button]")?.getAttribute("aria-label")).toBe("Cerrar notificación");
  });

  test.each(TOAST_KINDS)("notify(%j) makes a toast of that type", async (kind) => {
    renderToaster();
    act(() => {
      notify(kind, `mensaje ${kind}`);
    });
    const item = (await screen.findByText(`mensaje ${kind}`)).closest("[data-sonner-toast]");
    // sonner marks every kind but the plain one, which carries no data-type.
    expect(item?.getAttribute("data-type") ?? "default").toBe(kind);
  });

  test("sets width 356 px and gap 14 px, and shows at most three toasts", async () => {
    renderToaster();
    act(() => {
      for (let i = 1; i <= 5; i++) notify("info", `aviso ${i}`);
    });
    await screen.findByText("aviso 5");
    const toaster = document.querySelector<HTMLElement>("[data-sonner-toaster]");
    expect(toaster?.style.getPropertyValue("--width")).toBe("356px");
    expect(toaster?.style.getPropertyValue("--gap")).toBe("14px");
    expect(toaster?.closest("section")?.getAttribute("aria-label")).toContain("Notificaciones");
    const visible = document.querySelectorAll('[data-sonner-toast][data-visible="true"]');
    expect(visible).toHaveLength(3);
  });

  test("follows the app theme", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    renderToaster();
    act(() => {
      notify("default", "oscuro");
    });
    await screen.findByText("oscuro");
    expect(document.querySelector("[data-sonner-toaster]")?.getAttribute("data-sonner-theme")).toBe("dark");
  });
});
