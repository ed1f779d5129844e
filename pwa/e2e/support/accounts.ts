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
  const signUp = await call(baseURL, "POST", "/auth/signup", { email, password });
  const token = sessionFrom(signUp);
  const outbox = (await (await call(baseURL, "GET", `/dev/outbox?to=${encodeURIComponent(email)}`, undefined)).json()) as { code: string }[];
  const code = outbox.at(-1)?.code;
  if (!code) throw new Error(`no verification code for ${email} in the dev outbox`);
  await call(baseURL, "POST", "/auth/email/verify", { code }, token);
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
