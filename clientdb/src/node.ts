// Running devices in Node (integration tests, simulations, benchmarks): a device database on
// fake-indexeddb, a WebSocket factory on the `ws` package that sends the session cookie and the
// Origin a browser would, an in-process lock manager, and sign-in through the HTTP API.
// `import { ... } from "@patrimonio/clientdb/node"`. Not for the browser bundle.
// Also: applying a server page by hand (tests that play the server).
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import WebSocket from "ws";
import type { SocketFactory, SocketLike } from "./client";
import { applyPage, type ServerPage } from "./apply";
import { ClientDb } from "./clientdb";
import { internals } from "./internal";

export interface NodeDeviceOptions {
  /** Database name (unique per device within a factory). */
  name: string;
  /** A fresh in-memory IndexedDB by default; pass one to reopen the same data (a reload). */
  factory?: IDBFactory;
  now?: () => number;
}

/** Opens a device database on fake-indexeddb. Keep `factory` to reopen it after close(). */
export async function openNodeDevice(options: NodeDeviceOptions): Promise<{ db: ClientDb; factory: IDBFactory }> {
  const factory = options.factory ?? new IDBFactory();
  const db = await ClientDb.open({ name: options.name, indexedDB: factory, IDBKeyRange, ...(options.now ? { now: options.now } : {}) });
  return { db, factory };
}

/** A socket factory for Node: the `ws` WebSocket with the headers a browser would send. */
export function nodeSocket(options: { origin: string; cookie?: string; language?: string }): SocketFactory {
  return (url) => {
    const headers: Record<string, string> = { Origin: options.origin };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.language) headers["Accept-Language"] = options.language;
    return new WebSocket(url, { headers, maxPayload: 2 * 1024 * 1024 }) as unknown as SocketLike;
  };
}

/** The sync address of a server at `baseUrl` (http://host:port). */
export function syncUrlOf(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, "ws")}/api/v1/sync`;
}

export interface Session {
  /** `patrimonio_session=<token>`, for the Cookie header. */
  cookie: string;
  userId: string;
  /** The user's workspaces (GET /api/v1/me). */
  workspaces: { id: string; name: string; kind: string; role: string }[];
}

async function authRequest(baseUrl: string, path: string, body: unknown): Promise<string> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("patrimonio_session="));
  if (!cookie) throw new Error(`POST ${path}: no session cookie in the answer.`);
  return cookie;
}

async function me(baseUrl: string, cookie: string): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/v1/me`, { headers: { Cookie: cookie } });
  // 204 means the cookie signs nobody in.
  if (res.status !== 200) throw new Error(`GET /api/v1/me: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; workspaces: Session["workspaces"] };
  return { cookie, userId: body.user.id, workspaces: body.workspaces };
}

/**
 * Creates a local account (POST /api/v1/auth/signup, which answers without a session: the same for
 * a taken address) and signs in with the password (the address stays unverified), returning the
 * session.
 */
export async function signUp(baseUrl: string, email: string, password: string): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`POST /api/v1/auth/signup: HTTP ${res.status} ${await res.text()}`);
  return signIn(baseUrl, email, password);
}

/** Signs in (POST /api/v1/auth/signin): another session of the user, as a second device has. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<Session> {
  return me(baseUrl, await authRequest(baseUrl, "/api/v1/auth/signin", { email, password }));
}

/** Applies a page of the server's changes to a device database as its sync client would: for
 * tests that play the server by hand (another device's concurrent write, the echo of this one's). */
export async function applyServerPage(db: ClientDb, page: ServerPage): Promise<void> {
  await applyPage(internals(db), page);
}
