// Deleting the account through the real app, against the fake /api/v1 and an in-memory IndexedDB:
// the typed confirmation, the re-verification the server asks for, the device wiped like at
// sign-out, and nothing touched when the server refuses.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createApiClient } from "../../api/client";
import { ME_CACHE_KEY } from "../../auth/session";
import { SIGN_OUT_EVENT, SIGNED_OUT_MARKER } from "../../auth/signOut";
import { THEME_STORAGE_KEY } from "../../theme/theme";
import { createFakeServer, error, FAKE_PROOF, type FakeServer } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";
import { deleteAccountAndWipe, DeviceWipeError, WIPE_ATTEMPTS } from "./deleteAccount";

// The re-verification dialog and the toasts load on demand (not with the first page); their modules are
// loaded once here so that a test waits for the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("../../auth/reverify/ReverifyDialog"), import("../../toast/sonnerToaster")]));

const DEVICE_DB = "patrimonio-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
let factory: IDBFactory;

/** A device database with one record, as the sync engine leaves it. */
function createDeviceDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("assets");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction("assets", "readwrite");
      tx.objectStore("assets").put({ name: "Piso en Madrid", value: "250000.00" }, "a1");
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
    };
  });
}

async function databaseNames(): Promise<string[]> {
  return (await factory.databases()).map((db) => db.name ?? "").sort();
}

function count(server: FakeServer, call: string): number {
  return server.state.calls.filter((c) => c === call).length;
}

beforeEach(async () => {
  factory = new IDBFactory();
  vi.stubGlobal("indexedDB", factory);
  await createDeviceDatabase(DEVICE_DB);
  localStorage.setItem("i18nextLng", "es");
  localStorage.setItem(THEME_STORAGE_KEY, "dark");
  localStorage.setItem(ME_CACHE_KEY, JSON.stringify({ user: { id: "u1" }, onboarding: { step: "done" } }));
  localStorage.setItem("patrimonio.activeWorkspace", "w-personal");
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Opens the danger zone's confirmation (the kit's AlertDialog) and returns it. */
async function openDangerZone(openLabel: string) {
  const zone = await screen.findByTestId("danger-zone");
  const open = within(zone).getByRole("button", { name: openLabel });
  open.focus(); // as a real click does
  fireEvent.click(open);
  return screen.findByTestId("delete-account-dialog");
}

describe("deleting the account", () => {
  test("after the typed address and a proof, wipes the device like sign-out and lands on sign-in with a notice", async () => {
    const server = createFakeServer();
    const { router } = await renderApp("/profile", "es", server);
    const signOutEvents: Event[] = [];
    const onSignOut = (event: Event) => signOutEvents.push(event);
    window.addEventListener(SIGN_OUT_EVENT, onSignOut);

    const zone = await openDangerZone("Eliminar la cuenta…");
    const confirm = within(zone).getByLabelText("Escribe tu dirección de correo para confirmar");
    fireEvent.change(confirm, { target: { value: "ana@example.com" } });
    fireEvent.click(within(zone).getByRole("button", { name: "Eliminar mi cuenta para siempre" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    // Still all there while the proof is asked for.
    expect(await databaseNames()).toEqual([DEVICE_DB]);
    fireEvent.change(within(dialog).getByLabelText("Contraseña"), { target: { value: FAKE_PROOF.password } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));

    expect(await screen.findByText("Tu cuenta se ha eliminado")).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(await screen.findByRole("heading", { name: "Iniciar sesión" })).toBeTruthy();
    expect(count(server, "DELETE /users/")).toBe(2);
    expect(server.state.me).toBeNull();
    // Nothing of the deleted user stays on screen: the top bar has no account menu any more.
    expect(screen.queryByTestId("user-menu-button")).toBeNull();

    // The device: databases gone, the user's keys gone, the device's language and theme kept.
    expect(await databaseNames()).toEqual([]);
    expect(Object.keys(localStorage).sort()).toEqual(["i18nextLng", THEME_STORAGE_KEY].sort());
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(signOutEvents).toHaveLength(1);
    window.removeEventListener(SIGN_OUT_EVENT, onSignOut);
  });

  test("when the device cannot be wiped, the account is still gone: sign-in page, and a warning that says so", async () => {
    // A browser that keeps refusing to delete the database.
    vi.stubGlobal("indexedDB", {
      databases: () => factory.databases(),
      deleteDatabase: () => {
        const request: { error: DOMException; onerror: (() => void) | null } = { error: new DOMException("Refused.", "UnknownError"), onerror: null };
        setTimeout(() => request.onerror?.(), 0);
        return request;
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const server = createFakeServer({ reverified: true });
    const { router } = await renderApp("/profile", "en", server);
    const zone = await openDangerZone("Delete account…");
    fireEvent.change(within(zone).getByLabelText("Type your e-mail address to confirm"), { target: { value: "ana@example.com" } });
    fireEvent.click(within(zone).getByRole("button", { name: "Delete my account for good" }));
    expect(
      await screen.findByText("Your account has been deleted, but some of its data could not be erased from this device. Close the app's other tabs and reload."),
    ).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(server.state.me).toBeNull();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  test("says it cannot be undone, and asks for the account's own address before asking the server", async () => {
    const server = createFakeServer();
    await renderApp("/profile", "es", server);
    const zone = await openDangerZone("Eliminar la cuenta…");
    expect(zone.getAttribute("role")).toBe("alertdialog");
    expect(within(zone).getByText("No se puede deshacer")).toBeTruthy();
    const confirm = within(zone).getByLabelText("Escribe tu dirección de correo para confirmar");
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    const submit = within(zone).getByRole("button", { name: "Eliminar mi cuenta para siempre" });

    // The button stays disabled until the account's own address is typed.
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.change(confirm, { target: { value: "ana@example" } });
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.click(submit);
    expect(count(server, "DELETE /users/")).toBe(0);
    fireEvent.change(confirm, { target: { value: "ANA@example.com" } });
    expect(submit.hasAttribute("disabled")).toBe(false);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("a refusal (the last owner of a team workspace) shows the server's message and leaves the device as it was", async () => {
    const message = "You are the last owner of “Family office”: make another member an owner, or delete the workspace, first.";
    const server = createFakeServer({
      reverified: true,
      handlers: { "DELETE /users/": () => error(409, "conflict", message) },
    });
    const { router } = await renderApp("/profile", "en", server);
    const zone = await openDangerZone("Delete account…");
    fireEvent.change(within(zone).getByLabelText("Type your e-mail address to confirm"), { target: { value: "ana@example.com" } });
    fireEvent.click(within(zone).getByRole("button", { name: "Delete my account for good" }));

    expect((await within(zone).findByRole("alert")).textContent).toBe(message);
    expect(router.state.location.pathname).toBe("/profile");
    expect(await databaseNames()).toEqual([DEVICE_DB]);
    expect(localStorage.getItem("patrimonio.activeWorkspace")).toBe("w-personal");
    expect(localStorage.getItem(ME_CACHE_KEY)).not.toBeNull();
    // Another try is possible once the owner is sorted out.
    expect(within(zone).getByRole("button", { name: "Delete my account for good" }).hasAttribute("disabled")).toBe(false);
  });

  test("cancelling the proof deletes nothing and shows no error", async () => {
    const server = createFakeServer();
    const { router } = await renderApp("/profile", "en", server);
    const zone = await openDangerZone("Delete account…");
    fireEvent.change(within(zone).getByLabelText("Type your e-mail address to confirm"), { target: { value: "ANA@example.com " } });
    fireEvent.click(within(zone).getByRole("button", { name: "Delete my account for good" }));
    const proof = await screen.findByRole("dialog", { name: "Confirm it's you" });
    // Escape as a keyboard sends it: once the proof dialog holds the focus (its layer is set up then;
    // pressed earlier, the danger zone's dialog underneath is still the top layer and takes it).
    await waitFor(() => expect(proof.contains(document.activeElement)).toBe(true));
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(within(zone).getByRole("button", { name: "Delete my account for good" }).hasAttribute("disabled")).toBe(false));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(count(server, "DELETE /users/")).toBe(1);
    expect(server.state.me).not.toBeNull();
    expect(router.state.location.pathname).toBe("/profile");
    expect(await databaseNames()).toEqual([DEVICE_DB]);
  });

  test("Cancel closes the panel and gives focus back to the button that opened it", async () => {
    await renderApp("/profile", "en", createFakeServer());
    const dialog = await openDangerZone("Delete account…");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    const zone = await screen.findByTestId("danger-zone");
    const reopen = await within(zone).findByRole("button", { name: "Delete account…" });
    await waitFor(() => expect(document.activeElement).toBe(reopen));
    expect(screen.queryByLabelText("Type your e-mail address to confirm")).toBeNull();
  });
});

describe("deleteAccountAndWipe", () => {
  test("remembers the device settings before the call, because the answer's Clear-Site-Data empties storage first", async () => {
    // A fetch that behaves like a browser applying Clear-Site-Data: storage is empty when the answer arrives.
    const fetch: typeof globalThis.fetch = async () => {
      localStorage.clear();
      return new Response(null, { status: 204, headers: { "Clear-Site-Data": '"cache", "cookies", "storage"' } });
    };
    const api = createApiClient({ fetch, language: () => "es" });
    const report = await deleteAccountAndWipe({ api, targets: { indexedDB: factory, storages: [localStorage] } });
    expect(report.databases).toEqual([DEVICE_DB]);
    expect(localStorage.getItem("i18nextLng")).toBe("es");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(localStorage.getItem(ME_CACHE_KEY)).toBeNull();
  });

  test("finishes even when, after the answer, the browser never answers the list of databases (Chromium after Clear-Site-Data)", async () => {
    let answered = false;
    const fetch: typeof globalThis.fetch = async () => {
      answered = true;
      return new Response(null, { status: 204 });
    };
    // The real factory, except that once the server has answered, databases() hangs for good.
    const flaky = {
      databases: () => (answered ? new Promise<IDBDatabaseInfo[]>(() => {}) : factory.databases()),
      deleteDatabase: (name: string) => factory.deleteDatabase(name),
    } as unknown as IDBFactory;
    const api = createApiClient({ fetch, language: () => "es" });
    const report = await deleteAccountAndWipe({ api, targets: { indexedDB: flaky, storages: [localStorage] } });
    expect(report.databases).toEqual([DEVICE_DB]);
    expect(await databaseNames()).toEqual([]);
  });

  test("a deletion the browser aborts while it closes connections (Chromium after Clear-Site-Data) is tried again", async () => {
    const fetch: typeof globalThis.fetch = async () => new Response(null, { status: 204 });
    let aborts = 1;
    const flaky = {
      databases: () => factory.databases(),
      deleteDatabase: (name: string) => {
        if (aborts-- <= 0) return factory.deleteDatabase(name);
        const request: { error: DOMException; onerror: (() => void) | null } = {
          error: new DOMException("The connection was closed.", "AbortError"),
          onerror: null,
        };
        setTimeout(() => request.onerror?.(), 0);
        return request as unknown as IDBOpenDBRequest;
      },
    } as unknown as IDBFactory;
    const api = createApiClient({ fetch, language: () => "es" });
    const report = await deleteAccountAndWipe({ api, targets: { indexedDB: flaky, storages: [localStorage] } });
    expect(aborts).toBe(-1);
    expect(report.databases).toEqual([DEVICE_DB]);
    expect(await databaseNames()).toEqual([]);
    expect(localStorage.getItem(ME_CACHE_KEY)).toBeNull();
  });

  test("a wipe the browser keeps aborting is given up after a few tries, with its error", async () => {
    const fetch: typeof globalThis.fetch = async () => {
      localStorage.clear();
      return new Response(null, { status: 204 });
    };
    let tries = 0;
    const broken = {
      databases: () => factory.databases(),
      deleteDatabase: () => {
        tries++;
        const request: { error: DOMException; onerror: (() => void) | null } = {
          error: new DOMException("The connection was closed.", "AbortError"),
          onerror: null,
        };
        setTimeout(() => request.onerror?.(), 0);
        return request as unknown as IDBOpenDBRequest;
      },
    } as unknown as IDBFactory;
    const api = createApiClient({ fetch, language: () => "es" });
    const failure = await deleteAccountAndWipe({ api, targets: { indexedDB: broken, storages: [localStorage] } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeviceWipeError);
    expect((failure as DeviceWipeError).cause).toMatchObject({ name: "AbortError" });
    expect(tries).toBe(WIPE_ATTEMPTS);
    // The device's settings are put back all the same.
    expect(localStorage.getItem("i18nextLng")).toBe("es");
  });

  test("a refused call wipes nothing and rejects with the server's error", async () => {
    const fetch: typeof globalThis.fetch = async () => error(409, "conflict", "Last owner.");
    const api = createApiClient({ fetch, language: () => "en" });
    await expect(deleteAccountAndWipe({ api, targets: { indexedDB: factory, storages: [localStorage] } })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
    });
    expect(await databaseNames()).toEqual([DEVICE_DB]);
    expect(localStorage.getItem("patrimonio.activeWorkspace")).toBe("w-personal");
  });

  test("with the hosted provider, the sign-in page that follows is told to end that session too", async () => {
    const fetch: typeof globalThis.fetch = async () => new Response(null, { status: 204 });
    const api = createApiClient({ fetch, language: () => "en" });
    await deleteAccountAndWipe({ api, targets: { indexedDB: factory, storages: [localStorage, sessionStorage] }, hostedProvider: true });
    expect(sessionStorage.getItem(SIGNED_OUT_MARKER)).toBe("1");
  });
});
