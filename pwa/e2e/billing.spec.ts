// Billing end to end (issue 14), in Chromium against the real binary. Billing on: the server runs
// against stripe-mock (support/billing.ts); sign-up → the onboarding's card check (1 US dollar) → a
// signed checkout.session.completed webhook verifies the card → the plan screen lists the mocked
// products ("Price not available" for one) → subscribe yields a Checkout URL → a signed subscription
// webhook activates it → the status screen and the billing page show it (axe light and dark at 1280
// and 320 on each screen). Billing off (the shared server): onboarding goes straight to the dashboard
// and the billing page says billing is not configured.
import type { Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { activeSubscription, customerOf, sendWebhook, startBillingServer, startStripeMock, type StripeMock } from "./support/billing";
import { expect, visitorTest as test } from "./support/fixtures";
import type { RunningServer } from "./support/server";

/** Stripe's pages are not reached in tests: a stand-in answers and the address is checked. */
async function fakeStripePages(page: Page): Promise<void> {
  await page.route("https://checkout.stripe.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><html lang=en><title>Stripe Checkout</title><h1>Stripe Checkout</h1></html>" }),
  );
}

async function axeEverywhere(page: Page, path: string, label: string, ready: () => Promise<void>): Promise<void> {
  await forEachA11yVariant(page, async (variant) => {
    await page.goto(path);
    await ready();
    await expectVariantApplied(page, variant);
    await expectNoSeriousA11yViolations(page, `${label} · ${variant.label}`);
  });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe("billing on (stripe-mock)", () => {
  let stripe: StripeMock;
  let server: RunningServer;
  test.beforeAll(async () => {
    stripe = await startStripeMock();
    server = await startBillingServer(stripe);
  });
  test.afterAll(async () => {
    await server?.stop();
    await stripe?.stop();
  });

  test("card check, plan, webhook-activated subscription, status and billing page", async ({ page, context }) => {
    test.setTimeout(180_000);
    const base = server.url;
    const email = `billing.${Date.now()}@example.com`;
    // Sign-up and the steps before billing through the API (their screens have their own specs).
    const account = await createOnboardedAccount(base, email, "frase de paso del cobro 5521");
    await context.addCookies(storageStateFor(base, account).cookies);
    await fakeStripePages(page);

    // The onboarding goes on at the card check.
    await page.goto(`${base}/`);
    await expect(page).toHaveURL(`${base}/onboarding/card-check`);
    const pay = page.getByRole("button", { name: "Pagar 1,00 US$ con Stripe" });
    await expect(pay).toBeVisible();
    await axeEverywhere(page, `${base}/onboarding/card-check`, "card check", () => expect(pay).toBeVisible());
    await pay.click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\//);

    // Cancelled in Checkout: nothing charged, try again.
    await page.goto(`${base}/onboarding/card-check?checkout=cancel`);
    await expect(page.getByText("Has cancelado el pago. No se te ha cobrado nada")).toBeVisible();

    // Paid: Stripe's signed webhook records the card check; the screen moves on to the plans.
    const customer = customerOf(server, email);
    const card = await sendWebhook(base, {
      id: `evt_card_${Date.now()}`,
      type: "checkout.session.completed",
      object: { id: "cs_test_e2e", object: "checkout.session", mode: "payment", payment_status: "paid", status: "complete", customer,
        metadata: { patrimonio_purpose: "card_check" } },
    });
    expect(card).toEqual({ status: 200, body: { received: true, applied: true } });
    await page.goto(`${base}/onboarding/card-check?checkout=success&session_id=cs_test_e2e`);
    await expect(page).toHaveURL(`${base}/onboarding/suscription`);

    // The plans from stripe-mock: the fixture product with its monthly price, the other without one.
    const plans = page.getByTestId("plan");
    await expect(plans).toHaveCount(2);
    await expect(plans.nth(0)).toContainText("20,00 US$ / mes");
    await expect(plans.nth(1)).toContainText("Precio no disponible");
    await expect(plans.nth(1).getByRole("button")).toBeDisabled();
    await axeEverywhere(page, `${base}/onboarding/suscription`, "plans", () => expect(plans).toHaveCount(2));

    // Subscribe: Checkout in subscription mode.
    await plans.nth(0).getByRole("button").click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\//);

    // Back from Checkout, the status screen waits for Stripe; the signed webhook activates it.
    await page.goto(`${base}/onboarding/status?checkout=success&session_id=cs_test_sub`);
    await expect(page.getByText("Esperando a que Stripe confirme tu suscripción")).toBeVisible();
    const subscriptionId = `sub_e2e_${Date.now()}`;
    const sub = await sendWebhook(base, { id: `evt_sub_${Date.now()}`, type: "customer.subscription.created", object: activeSubscription(subscriptionId, customer) });
    expect(sub.status).toBe(200);
    const shown = page.getByTestId("subscription");
    await expect(shown).toContainText("Activa");
    await expect(shown).toContainText(subscriptionId);
    await expect(shown).toContainText("20,00 US$ / mes");
    await expect(shown).toContainText("USD");
    await axeEverywhere(page, `${base}/onboarding/status`, "status", () => expect(shown).toContainText("Activa"));

    // Onboarding is over: the dashboard, then the billing page with the same subscription.
    await page.getByRole("button", { name: "Ir al panel" }).click();
    await expect(page).toHaveURL(`${base}/`);
    await page.goto(`${base}/profile/billing?tab=billing`);
    const billed = page.getByTestId("subscription");
    await expect(billed).toContainText("Activa");
    await expect(billed).toContainText(subscriptionId);
    await expect(page.getByRole("button", { name: "Gestionar" })).toBeVisible();
    await expect(page.getByText("No tienes ninguna suscripción activa")).toHaveCount(0);
    await axeEverywhere(page, `${base}/profile/billing?tab=billing`, "billing page", () => expect(billed).toContainText("Activa"));

    // In English, the same page in the reader's format.
    await page.goto(`${base}/profile/billing?tab=billing&lng=en`);
    await expect(page.getByTestId("subscription")).toContainText("Active");
    await expect(page.getByTestId("subscription")).toContainText("US$20.00 / month");
  });
});

test.describe("billing off", () => {
  test("onboarding goes straight to the dashboard and the billing page says billing is not configured", async ({ page, context, baseURL }) => {
    const email = `sin-cobro.${Date.now()}@example.com`;
    const account = await createOnboardedAccount(baseURL!, email, "frase de paso sin cobro 7390");
    await context.addCookies(storageStateFor(baseURL!, account).cookies);
    await page.goto("/onboarding/card-check");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/profile/billing?tab=billing");
    await expect(page.getByRole("heading", { name: "El cobro no está configurado en este servidor" })).toBeVisible();
    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/profile/billing?tab=billing");
      await expect(page.getByRole("heading", { name: "El cobro no está configurado en este servidor" })).toBeVisible();
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `billing off · ${variant.label}`);
    });
  });
});
