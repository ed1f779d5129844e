import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createBrowserHistory, createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { afterEach, describe, expect, test } from "vitest";
import { SIGN_OUT_EVENT } from "../auth/signOut";
import { LeaveGuard } from "./LeaveGuard";
import { renderWithI18n } from "./testing";

function FormPage() {
  const [text, setText] = useState("");
  const navigate = useNavigate();
  return (
    <>
      <input aria-label="Nombre" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" onClick={() => void navigate({ to: "/workspaces", ignoreBlocker: true })}>
        Guardar
      </button>
      <LeaveGuard when={text !== ""} />
    </>
  );
}

// The browser's history (not a memory one): Back and the tab's beforeunload are the real ones.
async function renderForm() {
  window.history.replaceState(null, "", "/");
  const root = createRootRoute({
    component: () => (
      <>
        <Link to="/workspaces">Activos</Link>
        <Outlet />
      </>
    ),
  });
  const start = createRoute({ getParentRoute: () => root, path: "/", component: () => <Link to="/assets/new">Añadir</Link> });
  const form = createRoute({ getParentRoute: () => root, path: "/assets/new", component: FormPage });
  const other = createRoute({ getParentRoute: () => root, path: "/workspaces", component: () => <p>Otra página</p> });
  const router = createRouter({ routeTree: root.addChildren([start, form, other]), history: createBrowserHistory() });
  await act(async () => {
    renderWithI18n(<RouterProvider router={router} />);
    await router.load();
  });
  await act(async () => fireEvent.click(screen.getByRole("link", { name: "Añadir" })));
  await screen.findByRole("textbox", { name: "Nombre" });
  return router;
}

/** Whether the tab's closing would be questioned: a beforeunload listener cancels the event. */
function closingAsks(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const type = (text: string) => fireEvent.change(screen.getByRole("textbox", { name: "Nombre" }), { target: { value: text } });

afterEach(() => window.history.replaceState(null, "", "/"));

describe("LeaveGuard", () => {
  test("with nothing typed, a link leaves at once and closing the tab does not ask", async () => {
    const router = await renderForm();
    expect(closingAsks()).toBe(false);
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Activos" })));
    await screen.findByText("Otra página");
    expect(router.state.location.pathname).toBe("/workspaces");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  test("with changes, a link asks; «Seguir editando» stays with what was typed, «Descartar» leaves", async () => {
    const router = await renderForm();
    type("Piso de la playa");
    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Activos" })));
    let ask = await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Seguir editando" })));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/assets/new");
    expect((screen.getByRole("textbox", { name: "Nombre" }) as HTMLInputElement).value).toBe("Piso de la playa");

    await act(async () => fireEvent.click(screen.getByRole("link", { name: "Activos" })));
    ask = await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Descartar" })));
    await screen.findByText("Otra página");
    expect(router.state.location.pathname).toBe("/workspaces");
  });

  test("with changes, Back asks too", async () => {
    const router = await renderForm();
    type("Piso de la playa");
    await act(async () => router.history.back());
    const ask = await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" });
    expect(router.state.location.pathname).toBe("/assets/new");
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Descartar" })));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  test("closing the tab asks only while there are changes", async () => {
    await renderForm();
    expect(closingAsks()).toBe(false);
    type("Piso");
    expect(closingAsks()).toBe(true);
    type("");
    expect(closingAsks()).toBe(false);
  });

  test("signing out (which wipes the device, then reloads at /signin) does not make the tab ask", async () => {
    await renderForm();
    type("Piso");
    expect(closingAsks()).toBe(true);
    await act(async () => {
      window.dispatchEvent(new Event(SIGN_OUT_EVENT));
    });
    expect(closingAsks()).toBe(false);
  });

  test("a navigation the form makes itself (after saving) does not ask", async () => {
    const router = await renderForm();
    type("Piso de la playa");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Guardar" })));
    await screen.findByText("Otra página");
    expect(router.state.location.pathname).toBe("/workspaces");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
