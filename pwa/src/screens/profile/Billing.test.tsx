// The billing screens through the real app and router, against the fake /api/v1: the plans with
// their monthly price in the reader's format ("Price not available" for one without), the plan
// screen's error view and its retry, the status screen, and the billing page in its three states.
import { onlineManager } from "@tanstack/react-query";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { goToStripe, type BillingProduct, type BillingState, type BillingSubscription } from "../../api/billing";
import { createFakeServer, error, fakeMe, json } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

// The browser is never sent to Stripe (jsdom cannot navigate): each test sees where it would go.
vi.mock("../../api/billing", async (importOriginal) => ({ ...(await importOriginal<typeof import("../../api/billing")>()), goToStripe: vi.fn() }));

const PLANS: BillingProduct[] = [
  { id: "prod_basic", name: "Básico", description: "Para empezar", price: { id: "price_basic", amount: "1234.50", currency: "USD", interval: "month" } },
  { id: "prod_premium", name: "Premium", description: "", price: null },
];

const SUB: BillingSubscription = {
  id: "sub_123", status: "past_due", currency: "USD", created: "2025-03-10T10:00:00Z", productId: "prod_basic", product: "Básico",
  priceId: "price_basic", amount: "20.00", interval: "month", currentPeriodStart: "2025-03-10T10:00:00Z",
  currentPeriodEnd: "2025-04-10T10:00:00Z", cancelAtPeriodEnd: false, cancelAt: null, lastInvoice: "payment_failed",
};

function state(overrides: Partial<BillingState> = {}): BillingState {
  return { enabled: true, cardVerified: true, entitled: false, hasCustomer: true, subscriptions: [], ...overrides };
}

describe("the plan screen", () => {
  test("lists the plans with their monthly price for the reader, and none for a plan without one", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state()) },
    });
    await renderApp("/onboarding/suscription", "es", server);
    const plans = await screen.findAllByTestId("plan");
    expect(plans).toHaveLength(2);
    expect(within(plans[0]!).getByText("1.234,50 US$ / mes")).toBeTruthy();
    expect(within(plans[1]!).getByText("Precio no disponible")).toBeTruthy();
    expect(within(plans[1]!).getByRole("button", { name: "Suscribirme a Premium" }).hasAttribute("disabled")).toBe(true);
    expect(within(plans[0]!).getByRole("button", { name: "Suscribirme a Básico" }).hasAttribute("disabled")).toBe(false);
  });

  describe("a plan priced in several currencies shows the reader's", () => {
    const usd = { id: "price_usd", amount: "20.00", currency: "USD", interval: "month" };
    const eur = { id: "price_eur", amount: "18.00", currency: "EUR", interval: "month" };
    const gbp = { id: "price_gbp", amount: "16.00", currency: "GBP", interval: "month" };
    const MULTI: BillingProduct[] = [{ id: "prod_multi", name: "Multi", description: "", price: usd, prices: [usd, eur, gbp] }];
    const billingPage = () =>
      createFakeServer({
        handlers: {
          "GET /stripe/products": () => json(200, MULTI),
          "GET /stripe/subscriptions": () => json(200, state()),
          "POST /stripe/create-checkout-session": () => json(200, { id: "cs_1", url: "https://checkout.stripe.com/c/cs_1" }),
        },
      });

    test("euros for a Spanish reader, and that price is checked out", async () => {
      const server = billingPage();
      await renderApp("/profile/billing?tab=plans", "es", server);
      const [plan] = await screen.findAllByTestId("plan");
      expect(within(plan!).getByText("18,00 € / mes")).toBeTruthy();
      await act(async () => fireEvent.click(within(plan!).getByRole("button", { name: "Suscribirme a Multi" })));
      await waitFor(() => expect(server.state.calls).toContain("POST /stripe/create-checkout-session"));
      expect(server.state.bodies[server.state.calls.indexOf("POST /stripe/create-checkout-session")]).toMatchObject({ priceId: "price_eur" });
    });

    test("US dollars for an English reader", async () => {
      await renderApp("/profile/billing?tab=plans", "en", billingPage());
      const [plan] = await screen.findAllByTestId("plan");
      expect(within(plan!).getByText("US$20.00 / month")).toBeTruthy();
    });

    test("the base currency of the workspace they work in, when the device holds it", async () => {
      localStorage.setItem("patrimonio.baseCurrency.w-personal", JSON.stringify({ code: "GBP", pending: false }));
      await renderApp("/profile/billing?tab=plans", "es", billingPage());
      expect(await screen.findByText("16,00 GBP / mes")).toBeTruthy();
    });

    test("the default price when none is in the reader's currency", async () => {
      const only: BillingProduct[] = [{ ...MULTI[0]!, prices: [usd, gbp] }];
      const server = createFakeServer({ handlers: { "GET /stripe/products": () => json(200, only), "GET /stripe/subscriptions": () => json(200, state()) } });
      await renderApp("/profile/billing?tab=plans", "es", server);
      const [plan] = await screen.findAllByTestId("plan");
      expect(within(plan!).getByText("20,00 US$ / mes")).toBeTruthy();
    });
  });

  test("shows the error view when the plans cannot be loaded, and its retry loads them", async () => {
    let fail = true;
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: {
        "GET /stripe/products": () => (fail ? error(503, "unavailable", "The payment provider cannot be reached right now.") : json(200, PLANS)),
        "GET /stripe/subscriptions": () => json(200, state()),
      },
    });
    await renderApp("/onboarding/suscription", "en", server);
    const view = await screen.findByTestId("plans-error", {}, { timeout: 10_000 });
    expect(within(view).getByText(/The payment provider cannot be reached/)).toBeTruthy();
    fail = false;
    await act(async () => fireEvent.click(within(view).getByRole("button", { name: "Try again" })));
    expect(await screen.findByText("US$1,234.50 / month", {}, { timeout: 10_000 })).toBeTruthy();
  }, 30_000);
});

describe("the billing page", () => {
  test("says so when billing is off", async () => {
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ enabled: false, entitled: true })) } });
    await renderApp("/profile/billing?tab=billing", "es", server);
    expect(await screen.findByText("El cobro no está configurado en este servidor")).toBeTruthy();
  });

  test("says there is no active subscription, shows an expired one and offers the portal", async () => {
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ subscriptions: [SUB] })) } });
    await renderApp("/profile/billing?tab=billing", "es", server);
    expect(await screen.findByText("No tienes ninguna suscripción activa")).toBeTruthy();
    const sub = screen.getByTestId("subscription");
    expect(within(sub).getByText("Caducada")).toBeTruthy(); // past_due reads "expired"
    expect(within(sub).getByText("sub_123")).toBeTruthy();
    expect(within(sub).getByText("20,00 US$ / mes")).toBeTruthy();
    expect(within(sub).getByText(/El último pago ha fallado/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Gestionar" })).toBeTruthy();
  });

  test("names trialing 'on trial' and any other status as it is", async () => {
    const subs = [{ ...SUB, id: "sub_a", status: "trialing" }, { ...SUB, id: "sub_b", status: "incomplete", lastInvoice: "" as const }];
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: subs })) } });
    await renderApp("/profile/billing", "en", server);
    expect(await screen.findByText("On trial")).toBeTruthy();
    expect(screen.getByText("incomplete")).toBeTruthy();
    expect(screen.queryByText("You don't have any active subscriptions")).toBeNull();
  });
});

describe("back on the billing page from the card check", () => {
  test("waits for the card's confirmation, then offers the plans (the card check is not a plan being confirmed), and stops asking", async () => {
    let cardVerified = false;
    const server = createFakeServer({
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state({ cardVerified })) },
    });
    await renderApp("/profile/billing?tab=plans&checkout=card&session_id=cs_1", "en", server);
    expect(await screen.findByText("Payment received. Waiting for Stripe's confirmation…")).toBeTruthy();
    cardVerified = true;
    expect(await screen.findByText("Your card is verified.")).toBeTruthy();
    const subscribe = await screen.findByRole("button", { name: "Subscribe to Básico" });
    await waitFor(() => expect(subscribe.hasAttribute("disabled")).toBe(false));
    expect(screen.queryByText(/Payment received/)).toBeNull();
    // Confirmed: no more asking every 2 s.
    const asked = server.state.calls.filter((c) => c === "GET /stripe/subscriptions").length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 4_500)));
    expect(server.state.calls.filter((c) => c === "GET /stripe/subscriptions").length).toBe(asked);
  });

  test("a paid plan reported incomplete first (as Checkout's subscriptions often are) is still asked about until it is active", async () => {
    let status = "incomplete";
    const server = createFakeServer({
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: status === "active", subscriptions: [{ ...SUB, status, lastInvoice: "" }] })) },
    });
    await renderApp("/profile/billing?tab=billing&checkout=success&session_id=cs_1", "en", server);
    expect(await screen.findByText("incomplete")).toBeTruthy();
    status = "active";
    expect(await screen.findByText("Active")).toBeTruthy();
  });

  test("a paid plan's confirmation stops being asked for once the subscription is known", async () => {
    const active = { ...SUB, status: "active", lastInvoice: "paid" as const };
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: [active] })) } });
    await renderApp("/profile/billing?tab=billing&checkout=success&session_id=cs_1", "en", server);
    expect(await screen.findByText("Active")).toBeTruthy();
    const asked = server.state.calls.filter((c) => c === "GET /stripe/subscriptions").length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 4_500)));
    expect(server.state.calls.filter((c) => c === "GET /stripe/subscriptions").length).toBe(asked);
  });
});

describe("what happens at the end of the period", () => {
  const end = "2025-04-10T12:00:00Z"; // the 10th in every time zone from UTC-11 to UTC+11
  test("a subscription cancelled at the period's end says the day it ends and how to keep it; a trial says when it becomes paid and for how much", async () => {
    const subs: BillingSubscription[] = [
      { ...SUB, id: "sub_cancel", status: "active", lastInvoice: "paid", cancelAtPeriodEnd: true, currentPeriodEnd: end },
      { ...SUB, id: "sub_trial", status: "trialing", lastInvoice: "", amount: "1234.50", currentPeriodEnd: end },
    ];
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: subs })) } });
    await renderApp("/profile/billing?tab=billing", "es", server);
    const [cancel, trial] = await screen.findAllByTestId("subscription");
    expect(within(cancel!).getByText("Termina el 10 abr 2025: hasta entonces todo sigue abierto. Para mantenerla, renuévala con «Gestionar» en la página de Facturación.")).toBeTruthy();
    expect(within(trial!).getByText(/^Tu periodo de prueba termina el 10 abr 2025\. Después se cobran 1\.234,50 US\$ al mes en tu tarjeta/)).toBeTruthy();
  });

  test("a subscription cancelled on a set date says that day, in the reader's language, even during a trial", async () => {
    const on = "2025-05-03T12:00:00Z"; // the 3rd in every time zone from UTC-11 to UTC+11
    const subs: BillingSubscription[] = [
      { ...SUB, id: "sub_on", status: "active", lastInvoice: "paid", cancelAt: on, currentPeriodEnd: end },
      { ...SUB, id: "sub_trial_on", status: "trialing", lastInvoice: "", cancelAt: on, currentPeriodEnd: end },
    ];
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: subs })) } });
    await renderApp("/profile/billing?tab=billing", "es", server);
    const [active, trial] = await screen.findAllByTestId("subscription");
    expect(within(active!).getByText(/^Termina el 3 may 2025: hasta entonces todo sigue abierto\./)).toBeTruthy();
    expect(within(trial!).getByText(/^Termina el 3 may 2025/)).toBeTruthy();
    expect(within(trial!).queryByText(/Tu periodo de prueba termina/)).toBeNull();
  });

  test("in English the set date reads the English way", async () => {
    const subs: BillingSubscription[] = [{ ...SUB, id: "sub_on", status: "active", lastInvoice: "paid", cancelAt: "2025-05-03T12:00:00Z" }];
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: subs })) } });
    await renderApp("/profile/billing?tab=billing", "en", server);
    const sub = await screen.findByTestId("subscription");
    expect(within(sub).getByText(/^It ends on 3 May 2025: until then everything stays open\./)).toBeTruthy();
  });

  test("an ended subscription says nothing about its end, whatever its cancel flag, nor asks to update the card for its failed last payment", async () => {
    const old = { ...SUB, id: "sub_old", status: "canceled", lastInvoice: "payment_failed" as const, cancelAtPeriodEnd: true, currentPeriodEnd: end };
    const server = createFakeServer({ handlers: { "GET /stripe/subscriptions": () => json(200, state({ subscriptions: [old] })) } });
    await renderApp("/profile/billing?tab=billing", "en", server);
    const sub = await screen.findByTestId("subscription");
    expect(within(sub).getByText("Canceled")).toBeTruthy();
    expect(within(sub).queryByText(/ends/)).toBeNull();
    expect(within(sub).queryByText(/The last payment failed/)).toBeNull();
  });
});

describe("the status screen", () => {
  test("shows the subscription and re-verifies with Stripe", async () => {
    const active = { ...SUB, status: "active", lastInvoice: "paid" as const };
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: {
        "GET /stripe/subscriptions": () => json(200, state()),
        "POST /stripe/subscriptions/refresh": () => json(200, state({ entitled: true, subscriptions: [active] })),
      },
    });
    await renderApp("/onboarding/status", "es", server);
    expect(await screen.findByText(/Esperando a que Stripe confirme/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Volver a comprobar" })));
    expect(await screen.findByText("Activa")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ir al panel" })).toBeTruthy();
    expect(server.state.calls).toContain("POST /stripe/subscriptions/refresh");
  });
});

describe("the onboarding progress", () => {
  /** The progress bar's steps, and the one marked current. */
  async function progress() {
    const bar = await screen.findByRole("list", { name: "Progreso de la configuración" });
    const items = within(bar).getAllByRole("listitem");
    const labels = ["Aplicación de autenticación", "Llave de acceso", "Identidad personal", "Verificación de la tarjeta", "Tu plan"];
    const named = (li: HTMLElement) => labels.find((l) => li.textContent?.includes(l));
    return { steps: items.map(named), current: named(items.find((li) => li.getAttribute("aria-current") === "step")!) };
  }

  test("with billing on, it has the card check and the plan, and at the billing step the current half", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "personal_info", completed: false }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ cardVerified: false, hasCustomer: false })) },
    });
    await renderApp("/onboarding/personal-info", "es", server);
    await screen.findByText("Verificación de la tarjeta");
    expect(await progress()).toEqual({
      steps: ["Aplicación de autenticación", "Llave de acceso", "Identidad personal", "Verificación de la tarjeta", "Tu plan"],
      current: "Identidad personal",
    });
  });

  test("at the billing step: the card check until the card is verified, then the plan", async () => {
    let cardVerified = false;
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state({ cardVerified })) },
    });
    const first = await renderApp("/onboarding/card-check", "es", server);
    await screen.findByText("Verificación de la tarjeta");
    expect((await progress()).current).toBe("Verificación de la tarjeta");
    first.unmount();
    cardVerified = true;
    await renderApp("/onboarding/suscription", "es", server);
    await screen.findAllByTestId("plan");
    await vi.waitFor(async () => expect((await progress()).current).toBe("Tu plan"));
  });

  test("with billing off, it has neither", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "personal_info", completed: false }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ enabled: false, entitled: true, cardVerified: false })) },
    });
    await renderApp("/onboarding/personal-info", "es", server);
    await vi.waitFor(() => expect(server.state.calls).toContain("GET /stripe/subscriptions"));
    expect(await progress()).toEqual({ steps: ["Aplicación de autenticación", "Llave de acceso", "Identidad personal"], current: "Identidad personal" });
  });
});

describe("/onboarding/status once onboarding is done", () => {
  test("stays readable (Checkout's way back lands there, often after the webhook finished the onboarding)", async () => {
    const active = { ...SUB, status: "active", lastInvoice: "paid" as const };
    const server = createFakeServer({
      me: fakeMe({ step: "done", completed: true }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ entitled: true, subscriptions: [active] })) },
    });
    const { router } = await renderApp("/onboarding/status?checkout=success&session_id=cs_1", "es", server);
    expect(await screen.findByText("Tu suscripción está activa. ¡Bienvenido!")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/onboarding/status");
    expect(screen.getByRole("button", { name: "Ir al panel" })).toBeTruthy();
  });

  test("sends someone still in the earlier steps back to their step", async () => {
    const server = createFakeServer({ me: fakeMe({ step: "personal_info", completed: false }) });
    const { router } = await renderApp("/onboarding/status", "es", server);
    expect(router.state.location.pathname).toBe("/onboarding/personal-info");
  });
});

describe("no second subscription from the screens", () => {
  const pending: BillingSubscription[] = ["past_due", "unpaid", "incomplete", "paused"].map((status) => ({ ...SUB, id: `sub_${status}`, status }));

  test.each(pending)("the billing page offers 'Manage', not new plans, for a $status subscription", async (sub) => {
    const server = createFakeServer({
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state({ subscriptions: [sub] })) },
    });
    const first = await renderApp("/profile/billing?tab=billing", "en", server);
    expect(await screen.findByText(/Update your card or cancel it with “Manage”; no new plan is offered/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Manage" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "See the plans" })).toBeNull();
    first.unmount();
    await renderApp("/profile/billing?tab=plans", "en", server);
    const plans = await screen.findAllByTestId("plan");
    expect(within(plans[0]!).getByRole("button", { name: "Subscribe to Básico" }).hasAttribute("disabled")).toBe(true);
  });

  test("the billing page offers no plan while a paid one waits for Stripe's confirmation", async () => {
    const server = createFakeServer({
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state()) },
    });
    const first = await renderApp("/profile/billing?tab=plans&checkout=success&session_id=cs_1", "en", server);
    const plans = await screen.findAllByTestId("plan");
    expect(within(plans[0]!).getByRole("button", { name: "Subscribe to Básico" }).hasAttribute("disabled")).toBe(true);
    first.unmount();
    await renderApp("/profile/billing?tab=billing&checkout=success&session_id=cs_1", "en", server);
    expect(await screen.findByText("You don't have any active subscriptions")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "See the plans" })).toBeNull();
  });

  test("the status screen offers no plan while a paid one waits for its webhook, and one otherwise", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state()) },
    });
    const first = await renderApp("/onboarding/status?checkout=success&session_id=cs_1", "en", server);
    expect(await screen.findByText(/Waiting for Stripe to confirm/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Check again" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Choose a plan" })).toBeNull();
    first.unmount();
    await renderApp("/onboarding/status", "en", server);
    expect(await screen.findByRole("link", { name: "Choose a plan" })).toBeTruthy();
  });

  test("the status screen offers 'Manage' (the portal), not a plan, for a past_due subscription", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ subscriptions: [SUB] })) },
    });
    await renderApp("/onboarding/status", "en", server);
    expect(await screen.findByRole("button", { name: "Manage" })).toBeTruthy();
    expect(screen.getByText(/Update your card or cancel it with “Manage”/)).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Choose a plan" })).toBeNull();
    expect(screen.queryByText(/Waiting for Stripe to confirm/)).toBeNull();
  });

  test("an incomplete subscription can be abandoned, and the plans are offered again at once", async () => {
    const incomplete = { ...SUB, id: "sub_inc", status: "incomplete", lastInvoice: "payment_failed" as const };
    let current = state({ subscriptions: [incomplete] });
    const server = createFakeServer({
      handlers: {
        "GET /stripe/products": () => json(200, PLANS),
        "GET /stripe/subscriptions": () => json(200, current),
        "POST /stripe/subscriptions/sub_inc/abandon": () => {
          current = state({ subscriptions: [{ ...incomplete, status: "incomplete_expired" }] });
          return json(200, current);
        },
      },
    });
    await renderApp("/profile/billing?tab=billing", "en", server);
    const abandon = await screen.findByRole("button", { name: "Abandon Básico and choose another plan" });
    expect(screen.getByText("The first payment did not go through")).toBeTruthy();
    await act(async () => fireEvent.click(abandon));
    const plans = await screen.findAllByTestId("plan");
    expect(within(plans[0]!).getByRole("button", { name: "Subscribe to Básico" }).hasAttribute("disabled")).toBe(false);
    expect(server.state.calls).toContain("POST /stripe/subscriptions/sub_inc/abandon");
    expect(screen.queryByRole("button", { name: "Abandon Básico and choose another plan" })).toBeNull();
  });

  test("on the status screen, abandoning an incomplete subscription leads to the plans", async () => {
    const incomplete = { ...SUB, id: "sub_inc", status: "incomplete", lastInvoice: "" as const };
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: {
        "GET /stripe/products": () => json(200, PLANS),
        "GET /stripe/subscriptions": () => json(200, state({ subscriptions: [incomplete] })),
        "POST /stripe/subscriptions/sub_inc/abandon": () => json(200, state({ subscriptions: [{ ...incomplete, status: "incomplete_expired" }] })),
      },
    });
    await renderApp("/onboarding/status?checkout=success&session_id=cs_1", "es", server);
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Abandonar Básico y elegir otro plan" })));
    expect(await screen.findAllByTestId("plan")).toHaveLength(2);
  });

  test("the card check hides 'Pay' while the paid check waits for its webhook", async () => {
    const server = createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/subscriptions": () => json(200, state({ cardVerified: false })) },
    });
    const first = await renderApp("/onboarding/card-check?checkout=success&session_id=cs_1", "en", server);
    expect(await screen.findByText(/Waiting for Stripe's confirmation/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Check again" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    first.unmount();
    await renderApp("/onboarding/card-check", "en", server);
    expect(await screen.findByRole("button", { name: /^Pay / })).toBeTruthy();
  });
});

describe("offline (billing needs the network)", () => {
  /** Renders with the browser offline from the start (TanStack pauses the server's queries). */
  async function renderOffline(path: string, server: ReturnType<typeof createFakeServer>) {
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    try {
      return await renderApp(path, "es", server);
    } finally {
      onLine.mockRestore();
    }
  }
  afterEach(() => onlineManager.setOnline(true));

  const onboarding = () =>
    createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: { "GET /stripe/products": () => json(200, PLANS), "GET /stripe/subscriptions": () => json(200, state({ cardVerified: false })) },
    });

  test.each(["/onboarding/card-check", "/onboarding/suscription", "/onboarding/status"])("%s says it needs a connection instead of spinning, and comes back online", async (path) => {
    const server = onboarding();
    await renderOffline(path, server);
    const notice = await screen.findByTestId("needs-connection");
    expect(notice.textContent).toContain("Los pagos se hacen con Stripe y necesitan conexión a internet");
    expect(screen.queryByTestId("route-pending")).toBeNull();
    expect(server.state.calls.filter((c) => c.includes("/stripe/"))).toEqual([]);
    await act(async () => onlineManager.setOnline(true));
    await waitFor(() => expect(screen.queryByTestId("needs-connection")).toBeNull());
    await waitFor(() => expect(server.state.calls).toContain("GET /stripe/subscriptions"));
  });

  test("the actions that go to Stripe are off while offline", async () => {
    const server = onboarding();
    await renderOffline("/onboarding/card-check", server);
    await screen.findByTestId("needs-connection");
    await act(async () => onlineManager.setOnline(true));
    const pay = await screen.findByRole("button", { name: /^Pagar / });
    expect(pay.hasAttribute("disabled")).toBe(false);
    await act(async () => onlineManager.setOnline(false));
    expect(pay.hasAttribute("disabled")).toBe(true);
    await act(async () => fireEvent.click(pay));
    expect(server.state.calls).not.toContain("POST /stripe/create-checkout-session");
  });
});

describe("subscribing sends one checkout", () => {
  const TWO: BillingProduct[] = [PLANS[0]!, { id: "prod_plus", name: "Plus", description: "", price: { id: "price_plus", amount: "30.00", currency: "EUR", interval: "month" } }];

  function server(answer: () => Promise<Response> | Response) {
    return createFakeServer({
      me: fakeMe({ step: "billing", completed: false }),
      handlers: {
        "GET /stripe/products": () => json(200, TWO),
        "GET /stripe/subscriptions": () => json(200, state()),
        "POST /stripe/create-checkout-session": answer,
      },
    });
  }
  beforeEach(() => vi.mocked(goToStripe).mockClear());
  const posts = (s: ReturnType<typeof createFakeServer>) => s.state.calls.filter((c) => c === "POST /stripe/create-checkout-session").length;

  test("a double click, or a click on another plan before the answer, asks for one session only", async () => {
    let answer!: (r: Response) => void;
    const s = server(() => new Promise<Response>((resolve) => (answer = resolve)));
    await renderApp("/onboarding/suscription", "en", s);
    const basic = await screen.findByRole("button", { name: "Subscribe to Básico" });
    const plus = screen.getByRole("button", { name: "Subscribe to Plus" });
    await act(async () => {
      fireEvent.click(basic);
      fireEvent.click(basic);
      fireEvent.click(plus);
    });
    await waitFor(() => expect(posts(s)).toBe(1));
    expect(basic.getAttribute("aria-busy")).toBe("true");
    expect(plus.hasAttribute("disabled")).toBe(true);
    await act(async () => fireEvent.click(plus));
    expect(posts(s)).toBe(1);
    await act(async () => answer(json(200, { id: "cs_1", url: "https://checkout.stripe.test/cs_1" })));
    await waitFor(() => expect(vi.mocked(goToStripe)).toHaveBeenCalledWith("https://checkout.stripe.test/cs_1"));
    // On its way to Stripe: still busy, a further click asks for nothing.
    await act(async () => fireEvent.click(basic));
    expect(basic.getAttribute("aria-busy")).toBe("true");
    expect(posts(s)).toBe(1);
  });

  test("back from Stripe with the browser's back button (the page from the back-forward cache), the plans can be chosen again", async () => {
    const s = server(() => json(200, { id: "cs_1", url: "https://checkout.stripe.test/cs_1" }));
    await renderApp("/onboarding/suscription", "en", s);
    const basic = await screen.findByRole("button", { name: "Subscribe to Básico" });
    await act(async () => fireEvent.click(basic));
    await waitFor(() => expect(vi.mocked(goToStripe)).toHaveBeenCalled());
    expect(basic.getAttribute("aria-busy")).toBe("true");
    const subscriptionsAsked = s.state.calls.filter((c) => c === "GET /stripe/subscriptions").length;
    await act(async () => {
      const back = new Event("pageshow");
      Object.defineProperty(back, "persisted", { value: true });
      window.dispatchEvent(back);
    });
    await waitFor(() => expect(basic.hasAttribute("aria-busy")).toBe(false));
    expect(screen.getByRole("button", { name: "Subscribe to Plus" }).hasAttribute("disabled")).toBe(false);
    // The billing state is asked for afresh: the payment may have been made meanwhile.
    await waitFor(() => expect(s.state.calls.filter((c) => c === "GET /stripe/subscriptions").length).toBeGreaterThan(subscriptionsAsked));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Subscribe to Plus" })));
    await waitFor(() => expect(posts(s)).toBe(2));
  });
});
