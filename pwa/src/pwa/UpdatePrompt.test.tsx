import { act, fireEvent, render, screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { toast } from "sonner";
import { afterEach, describe, expect, test } from "vitest";
import { createI18n, type Language } from "../i18n/i18n";
import { fakeServiceWorker } from "../test/fakePwaRegister";
import { ThemeProvider } from "../theme/ThemeProvider";
import { AppToaster } from "../toast/toast";
import { KEPT_STORAGE_KEYS } from "../auth/wipe";
import { OFFLINE_READY_KEY } from "./offlineReady";
import { setServerBehind } from "../sync/serverBehind";
import { UpdatePrompt } from "./UpdatePrompt";
import { requireAppUpdate, resetAppUpdateRequired } from "./updateRequired";

function renderPrompt(language: Language) {
  return render(
    <ThemeProvider matchMedia={() => undefined}>
      <I18nextProvider i18n={createI18n({ lng: language })}>
        <AppToaster />
        <UpdatePrompt />
      </I18nextProvider>
    </ThemeProvider>,
  );
}

afterEach(() => {
  fakeServiceWorker.reset();
  resetAppUpdateRequired();
  act(() => {
    toast.dismiss();
  });
});

describe("UpdatePrompt", () => {
  test.each([
    ["es", "Hay una nueva versión disponible", "Recargar"],
    ["en", "A new version is available", "Reload"],
  ] as const)("in %s, a waiting worker brings a toast whose action reloads into it", async (language, message, action) => {
    fakeServiceWorker.needRefresh = true;
    renderPrompt(language);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(fakeServiceWorker.updateRequests).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: action }));
    expect(fakeServiceWorker.updateRequests).toEqual([true]);
  });

  test.each([
    ["es", "Hay una versión nueva de la app: recarga para seguir sincronizando", "Recargar"],
    ["en", "A new version of the app is out: reload to keep syncing", "Reload"],
  ] as const)("in %s, the sync server refusing this version brings a toast that asks for a reload", async (language, message, action) => {
    renderPrompt(language);
    act(() => requireAppUpdate());
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole("button", { name: action })).toBeTruthy();
  });

  test("the sync server refusing this version while a new worker waits: the usual toast, reloading into it", async () => {
    fakeServiceWorker.needRefresh = true;
    renderPrompt("en");
    act(() => requireAppUpdate());
    expect(await screen.findByText("A new version is available")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    expect(fakeServiceWorker.updateRequests).toEqual([true]);
  });

  test("while the sync server is older than the app, a waiting worker (that older build) is not offered", async () => {
    fakeServiceWorker.needRefresh = true;
    setServerBehind(true);
    try {
      renderPrompt("es");
      act(() => {
        toast("sentinel");
      });
      await screen.findByText("sentinel");
      expect(screen.queryByText("Hay una nueva versión disponible")).toBeNull();
      // Once the server is up to date again, the waiting worker is a new version.
      act(() => setServerBehind(false));
      expect(await screen.findByText("Hay una nueva versión disponible")).toBeTruthy();
    } finally {
      setServerBehind(false);
    }
  });

  test("says nothing while no new version waits", async () => {
    renderPrompt("es");
    act(() => {
      toast("sentinel");
    });
    await screen.findByText("sentinel");
    expect(screen.queryByText("Hay una nueva versión disponible")).toBeNull();
  });

  test("tells once per install that the app works offline, and remembers it in a kept key", async () => {
    fakeServiceWorker.offlineReady = true;
    const first = renderPrompt("es");
    expect(await screen.findByText("Lista para usar sin conexión")).toBeTruthy();
    expect(localStorage.getItem(OFFLINE_READY_KEY)).toBe("1");
    // Sign-out's wipe keeps the mark with the language and theme.
    expect(KEPT_STORAGE_KEYS).toContain(OFFLINE_READY_KEY);
    first.unmount();
    act(() => {
      toast.dismiss();
    });

    // A new worker reports "offline ready" again (after a sign-out's Clear-Site-Data): no toast.
    renderPrompt("es");
    act(() => {
      toast("sentinel");
    });
    await screen.findByText("sentinel");
    expect(screen.queryByText("Lista para usar sin conexión")).toBeNull();
  });
});
