// Accounts stopped at each step of sign-up and onboarding, made through the API (no browser), and a
// browser context holding their session.
import type { Browser, BrowserContext } from "@playwright/test";
import { storageStateFor, type ApiAccount } from "./accounts";

const SESSION_COOKIE = "patrimonio_session";

function cookieFrom(res: Response): string | undefined {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const [name, ...value] = (pair ?? "").split("=");
    if (name?.trim() === SESSION_COOKIE) return value.join("=").trim();
  }
  return undefined;
}

async function api(baseURL: string, method: string, path: string, body?: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { Origin: baseURL, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Cookie = `${SESSION_COOKIE}=${token}`;
  const res = await fetch(`${baseURL}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res;
}

export type Step = "verify_email" | "security_totp" | "security_passkey" | "personal_info";

/**
 * A new account stopped at `step`, and where its screen is. Works whether sign-up answers with a
 * session (then /auth/email/verify) or without one (then /auth/signup/verify signs in).
 */
export async function accountAt(baseURL: string, step: Step): Promise<{ token: string | undefined; path: string }> {
  const email = `a11y-${step.replace("_", "-")}-${Date.now()}@example.com`;
  const signUp = await api(baseURL, "POST", "/auth/signup", { email, password: "accessible e2e passphrase 7731" });
  let token = cookieFrom(signUp);
  if (step === "verify_email") return { token, path: token ? "/signup/verify" : `/signup/verify?email=${encodeURIComponent(email)}` };
  const outbox = (await (await api(baseURL, "GET", `/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code: string }[];
  const code = outbox.at(-1)?.code;
  if (!code) throw new Error(`no code for ${email} in the dev outbox`);
  if (token) await api(baseURL, "POST", "/auth/email/verify", { code }, token);
  else token = cookieFrom(await api(baseURL, "POST", "/auth/signup/verify", { email, code }));
  if (step === "security_totp") return { token, path: "/onboarding/2fa" };
  await api(baseURL, "POST", "/onboarding/advance", { step: "security_totp", action: "skip" }, token);
  if (step === "security_passkey") return { token, path: "/onboarding/passkey" };
  await api(baseURL, "POST", "/onboarding/advance", { step: "security_passkey", action: "skip" }, token);
  return { token, path: "/onboarding/personal-info" };
}

export async function contextWith(browser: Browser, baseURL: string, token: string | undefined): Promise<BrowserContext> {
  const account: ApiAccount = { email: "", password: "", sessionToken: token ?? "" };
  return browser.newContext({ baseURL, locale: "es-ES", storageState: token ? storageStateFor(baseURL, account) : { cookies: [], origins: [] } });
}
