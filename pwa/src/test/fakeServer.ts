// A stand-in for the server's /api/v1 in component tests (jsdom has no server): a fetch function
// answering from an in-memory state that tests set up and read. Only what the screens under test
// call is here; anything else answers 404 the way the real server does. The real server is tested
// by its Go tests and, with these screens, by the Playwright e2e tests.
import { EMAIL_PATTERN } from "@patrimonio/shared-schema";
import type { AdminUser, AuthConfig, Me, Passkey, User, Workspace } from "../api/types";

export interface FakeServerState {
  me: Me | null;
  config: AuthConfig;
  passkeys: Passkey[];
  /** Every request, as "METHOD /path", in order. */
  calls: string[];
  /** Bodies of the requests, in the same order (undefined without one). */
  bodies: unknown[];
  /** The requests' paths with their query strings ("/admin/users?limit=25&offset=0"), in order. */
  urls: string[];
  /** Whether the session holds a recent proof of identity (POST /auth/reverify passed). */
  reverified: boolean;
  /** The users GET /admin/users pages through, newest first. */
  adminUsers: AdminUser[];
  /** The change of address waiting for its code (POST /users/email), or null. */
  emailChange: { email: string; code: string } | null;
}

/** What the built-in POST /auth/reverify accepts: this password, or this code (authenticator or e-mailed). */
export const FAKE_PROOF = { password: "correct horse battery", code: "123456" } as const;
/** The code the built-in POST /users/email "sends" to the new address. */
export const FAKE_EMAIL_CODE = "654321";

export function fakeUser(overrides: Partial<User> = {}): User {
  return {
    id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
    email: "ana@example.com",
    emailVerified: true,
    isAdmin: false,
    firstName: "Ana",
    lastName: "García",
    birthday: "1980-05-17",
    gender: "female",
    country: "ES",
    state: "Madrid",
    totpEnabled: false,
    hasPassword: true,
    ...overrides,
  };
}

export const PERSONAL_WORKSPACE: Workspace = { id: "w-personal", name: "Ana", kind: "personal", role: "owner" };

export function fakeMe(overrides: { user?: Partial<User>; step?: string; completed?: boolean; workspaces?: Workspace[] } = {}): Me {
  const completed = overrides.completed ?? (overrides.step === undefined || overrides.step === "done");
  return {
    user: fakeUser(overrides.user),
    workspaces: overrides.workspaces ?? [PERSONAL_WORKSPACE],
    onboarding: { step: overrides.step ?? "done", completed },
    reverifiedUntil: null,
    provider: "local",
  };
}

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

export function error(status: number, code: string, message: string): Response {
  return json(status, { error: { code, message } });
}

/** The request as a handler may want it beyond its body: the URL (query string) and headers. */
export interface FakeRequest {
  url: URL;
  headers: Headers;
}

/** Extra endpoints a test adds, keyed "METHOD /path" (the path after /api/v1). */
export type FakeHandler = (body: unknown, state: FakeServerState, request: FakeRequest) => Response | Promise<Response>;

/**
 * A family of endpoints with parameters in their paths (/workspaces/{id}/…, see ./fakeWorkspaces.ts):
 * the answer, or undefined to leave the request to the others.
 */
export type FakeRoute = (method: string, path: string, body: unknown, state: FakeServerState, request: FakeRequest) => Response | undefined;

/** The server's messages that the built-in endpoints answer with, {es, en} like the real catalogue. */
const MESSAGES = {
  signIn: ["Inicia sesión para continuar.", "Sign in to continue."],
  reverify: ["Confirma tu identidad para continuar.", "Confirm your identity to continue."],
  proofWrong: ["El código no es correcto.", "The code is wrong."],
  emailInvalid: ["Introduce una dirección de correo electrónico válida.", "Enter a valid e-mail address."],
  emailSame: ["Esa ya es tu dirección de correo electrónico.", "That is already your e-mail address."],
  codeNone: ["No hay ningún código pendiente. Pide uno nuevo.", "There is no pending code. Ask for a new one."],
  codeWrong: ["El código no es correcto.", "The code is wrong."],
  adminOnly: ["Esta sección es solo para administradores.", "This area is for administrators only."],
} as const;

function say(headers: Headers, key: keyof typeof MESSAGES): string {
  const [es, en] = MESSAGES[key];
  return (headers.get("Accept-Language") ?? "es").startsWith("en") ? en : es;
}

/** GET /admin/users as the server answers it: a page of the array, X-Total-Count and Link rel="next". */
function adminUsersPage(state: FakeServerState, url: URL): Response {
  const search = (url.searchParams.get("search") ?? "").trim().toLowerCase();
  const limit = Number(url.searchParams.get("limit") ?? "50");
  const offset = Number(url.searchParams.get("offset") ?? "0");
  const matching = state.adminUsers.filter((u) => u.email.toLowerCase().includes(search));
  const page = matching.slice(offset, offset + limit);
  const headers = new Headers({ "Content-Type": "application/json", "X-Total-Count": String(matching.length) });
  const next = offset + page.length;
  if (page.length > 0 && next < matching.length) {
    const query = new URLSearchParams();
    if (search !== "") query.set("search", search);
    query.set("limit", String(limit));
    query.set("offset", String(next));
    headers.set("Link", `</api/v1/admin/users?${query.toString()}>; rel="next"`);
  }
  return new Response(JSON.stringify(page), { status: 200, headers });
}

export function createFakeServer(
  initial: Partial<Omit<FakeServerState, "calls" | "bodies" | "urls">> & { handlers?: Record<string, FakeHandler>; routes?: FakeRoute[] } = {},
) {
  const handlers = initial.handlers ?? {};
  const routes = initial.routes ?? [];
  const state: FakeServerState = {
    me: initial.me === undefined ? fakeMe() : initial.me,
    config: initial.config ?? { provider: "local", passkeys: true, emailDelivery: "log" },
    passkeys: initial.passkeys ?? [],
    calls: [],
    bodies: [],
    urls: [],
    reverified: initial.reverified ?? false,
    adminUsers: initial.adminUsers ?? [],
    emailChange: initial.emailChange ?? null,
  };

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://app.test");
    const method = (init?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/^\/api\/v1/, "");
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    state.calls.push(`${method} ${path}`);
    state.bodies.push(body);
    state.urls.push(`${path}${url.search}`);
    const headers = new Headers(init?.headers);
    const signedIn = state.me;
    const handler = handlers[`${method} ${path}`];
    if (handler) return handler(body, state, { url, headers });
    for (const route of routes) {
      const answer = route(method, path, body, state, { url, headers });
      if (answer) return answer;
    }

    switch (`${method} ${path}`) {
      case "GET /auth/config":
        return json(200, state.config);
      case "GET /me":
        // Like the server: nobody signed in is an answer (204), not an error.
        return signedIn ? json(200, signedIn) : new Response(null, { status: 204 });
      case "GET /workspaces":
        return signedIn ? json(200, signedIn.workspaces) : error(401, "unauthorized", "Sign in first.");
      case "GET /invitations":
        return signedIn ? json(200, []) : error(401, "unauthorized", "Sign in first.");
      case "GET /auth/passkeys":
        return signedIn ? json(200, state.passkeys) : error(401, "unauthorized", "Sign in first.");
      case "POST /auth/signout":
        state.me = null;
        return new Response(null, { status: 204 });
    }

    // The account actions below, like the real server's: a session first, then a recent proof.
    const sensitive = ["POST /users/email", "DELETE /users/"];
    if (!signedIn && (sensitive.includes(`${method} ${path}`) || path.startsWith("/auth/reverify") || path === "/users/email/verify")) {
      return error(401, "unauthorized", say(headers, "signIn"));
    }
    if (sensitive.includes(`${method} ${path}`) && !state.reverified) {
      return error(403, "reverification_required", say(headers, "reverify"));
    }
    switch (`${method} ${path}`) {
      case "POST /auth/reverify": {
        const { password, code } = (body ?? {}) as { password?: string; code?: string };
        if (password !== FAKE_PROOF.password && code !== FAKE_PROOF.code) return error(400, "invalid", say(headers, "proofWrong"));
        state.reverified = true;
        return json(200, { reverifiedUntil: "2030-01-01T10:10:00Z" });
      }
      case "POST /auth/reverify/email":
        return new Response(null, { status: 204 });
      case "POST /users/email": {
        const email = String((body as { email?: unknown } | undefined)?.email ?? "").trim().toLowerCase();
        // The server's rule: the shared schema's e-mail address (one rule everywhere).
        if (!EMAIL_PATTERN.test(email)) return error(400, "invalid", say(headers, "emailInvalid"));
        if (email === signedIn!.user.email) return error(400, "invalid", say(headers, "emailSame"));
        state.emailChange = { email, code: FAKE_EMAIL_CODE };
        return json(202, { pendingEmail: email, expiresAt: "2030-01-01T10:15:00Z" });
      }
      case "POST /users/email/verify": {
        const change = state.emailChange;
        if (!change) return error(400, "invalid", say(headers, "codeNone"));
        if ((body as { code?: unknown } | undefined)?.code !== change.code) return error(400, "invalid", say(headers, "codeWrong"));
        signedIn!.user = { ...signedIn!.user, email: change.email, emailVerified: true };
        state.emailChange = null;
        return json(200, { user: signedIn!.user });
      }
      case "DELETE /users/":
        state.me = null;
        state.reverified = false;
        return new Response(null, { status: 204, headers: { "Clear-Site-Data": '"cache", "cookies", "storage"' } });
      case "GET /admin/users":
        if (!signedIn) return error(401, "unauthorized", say(headers, "signIn"));
        if (!signedIn.user.isAdmin) return error(403, "forbidden", say(headers, "adminOnly"));
        return adminUsersPage(state, url);
    }
    return error(404, "not_found", `No API endpoint at /api/v1${path}.`);
  };

  return { state, fetch };
}

export type FakeServer = ReturnType<typeof createFakeServer>;
