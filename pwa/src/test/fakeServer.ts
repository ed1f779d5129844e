// A stand-in for the server's /api/v1 in component tests (jsdom has no server): a fetch function
// answering from an in-memory state that tests set up and read. Only what the screens under test
// call is here; anything else answers 404 the way the real server does. The real server is tested
// by its Go tests and, with these screens, by the Playwright e2e tests.
import type { AuthConfig, Me, Passkey, User, Workspace } from "../api/types";

export interface FakeServerState {
  me: Me | null;
  config: AuthConfig;
  passkeys: Passkey[];
  /** Every request, as "METHOD /path", in order. */
  calls: string[];
  /** Bodies of the requests, in the same order (undefined without one). */
  bodies: unknown[];
}

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

/** Extra endpoints a test adds, keyed "METHOD /path" (the path after /api/v1). */
export type FakeHandler = (body: unknown, state: FakeServerState) => Response | Promise<Response>;

export function createFakeServer(
  initial: Partial<Omit<FakeServerState, "calls" | "bodies">> & { handlers?: Record<string, FakeHandler> } = {},
) {
  const handlers = initial.handlers ?? {};
  const state: FakeServerState = {
    me: initial.me === undefined ? fakeMe() : initial.me,
    config: initial.config ?? { provider: "local", passkeys: true, emailDelivery: "log" },
    passkeys: initial.passkeys ?? [],
    calls: [],
    bodies: [],
  };

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://app.test");
    const method = (init?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/^\/api\/v1/, "");
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    state.calls.push(`${method} ${path}`);
    state.bodies.push(body);
    const signedIn = state.me;
    const handler = handlers[`${method} ${path}`];
    if (handler) return handler(body, state);

    switch (`${method} ${path}`) {
      case "GET /auth/config":
        return json(200, state.config);
      case "GET /me":
        return signedIn ? json(200, signedIn) : error(401, "unauthorized", "Sign in first.");
      case "GET /workspaces":
        return signedIn ? json(200, signedIn.workspaces) : error(401, "unauthorized", "Sign in first.");
      case "GET /auth/passkeys":
        return signedIn ? json(200, state.passkeys) : error(401, "unauthorized", "Sign in first.");
      case "POST /auth/signout":
        state.me = null;
        return new Response(null, { status: 204 });
    }
    return error(404, "not_found", `No API endpoint at /api/v1${path}.`);
  };

  return { state, fetch };
}

export type FakeServer = ReturnType<typeof createFakeServer>;
