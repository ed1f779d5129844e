// Accounts made through the HTTP API (no browser), for tests that need someone signed in: sign-up,
// the e-mailed code from the dev outbox, onboarding skipped or filled, and the session cookie as a
// Playwright storage state.
export interface ApiAccount {
  email: string;
  password: string;
  /** The patrimonio_session cookie's value. */
  sessionToken: string;
}

const SESSION_COOKIE = "patrimonio_session";

function sessionFrom(res: Response): string {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const [name, ...value] = (pair ?? "").split("=");
    if (name?.trim() === SESSION_COOKIE) return value.join("=").trim();
  }
  throw new Error(`no ${SESSION_COOKIE} cookie in the answer of ${res.url}`);
}

async function call(baseURL: string, method: string, path: string, body: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { Origin: baseURL, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Cookie = `${SESSION_COOKIE}=${token}`;
  const res = await fetch(`${baseURL}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** Signs up and finishes onboarding (second factors skipped, identity given) through the API. */
export async function createOnboardedAccount(baseURL: string, email: string, password: string): Promise<ApiAccount> {
  await call(baseURL, "POST", "/auth/signup", { email, password });
  const outbox = (await (await call(baseURL, "GET", `/dev/outbox?to=${encodeURIComponent(email)}`, undefined)).json()) as { code: string }[];
  const code = outbox.at(-1)?.code;
  if (!code) throw new Error(`no verification code for ${email} in the dev outbox`);
  // Sign-up answers without a session; the e-mailed code signs in.
  const token = sessionFrom(await call(baseURL, "POST", "/auth/signup/verify", { email, code }));
  await call(baseURL, "POST", "/onboarding/advance", { step: "security_totp", action: "skip" }, token);
  await call(baseURL, "POST", "/onboarding/advance", { step: "security_passkey", action: "skip" }, token);
  await call(baseURL, "PATCH", "/users/", {
    first_name: "Lucía",
    last_name: "Fernández",
    birthday: "1985-03-14",
    gender: "female",
    country: "ES",
    state: "Madrid",
  }, token);
  const me = (await (await call(baseURL, "GET", "/me", undefined, token)).json()) as { onboarding: { step: string } };
  if (me.onboarding.step === "personal_info") {
    await call(baseURL, "POST", "/onboarding/advance", { step: "personal_info", action: "complete" }, token);
  }
  return { email, password, sessionToken: token };
}

/** A Playwright storage state holding the account's session cookie for the server at baseURL. */
export function storageStateFor(baseURL: string, account: ApiAccount) {
  const { hostname } = new URL(baseURL);
  return {
    cookies: [
      {
        name: SESSION_COOKIE,
        value: account.sessionToken,
        domain: hostname,
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: true,
        sameSite: "Lax" as const,
      },
    ],
    origins: [],
  };
}

/**
 * The app admin of the e2e server: global-setup.ts lists this address in PATRIMONIO_ADMIN_EMAILS
 * (admins by configuration), and a test signs it up when it needs it (adminAccount).
 */
export const E2E_ADMIN_EMAIL = "e2e-admin@example.com";
const E2E_ADMIN_PASSWORD = "admin e2e passphrase 6620 long";

/** Signs in with e-mail and password through the API; the answer's status (200, 401, 429, …). */
export async function signInStatus(baseURL: string, email: string, password: string): Promise<number> {
  const res = await fetch(`${baseURL}/api/v1/auth/signin`, {
    method: "POST",
    headers: { Origin: baseURL, Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

/** Signs up through the API and nothing more (the account stays at e-mail verification). */
export async function signUpOnly(baseURL: string, email: string, password: string): Promise<void> {
  await call(baseURL, "POST", "/auth/signup", { email, password });
}

/**
 * The e2e server's app admin: signed up and onboarded on first use (no mail to the address in the
 * dev outbox yet), signed in again after that (no failed attempt counted by the throttle).
 */
export async function adminAccount(baseURL: string): Promise<ApiAccount> {
  const mails = (await (await call(baseURL, "GET", `/dev/outbox?to=${encodeURIComponent(E2E_ADMIN_EMAIL)}`, undefined)).json()) as unknown[];
  if (mails.length === 0) return createOnboardedAccount(baseURL, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
  const signIn = await call(baseURL, "POST", "/auth/signin", { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD });
  return { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, sessionToken: sessionFrom(signIn) };
}
