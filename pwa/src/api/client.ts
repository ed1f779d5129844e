// The typed client of the server's HTTP API (/api/v1): JSON in and out, cookies on every call, the
// active language in Accept-Language, and every failure turned into one error type, ApiError, that
// carries the server's error code and its (already translated) message.
//
// A call that the server answers with "reverification_required" (a sensitive action without a
// recent proof of identity) asks the registered handler (the re-verification dialog) for a proof and,
// once given, is sent again once.

/** Error codes of the server (core/error.go), plus the client's own "network" and "bad_response". */
export const ERROR_CODES = {
  invalid: "invalid",
  notFound: "not_found",
  conflict: "conflict",
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  tooLarge: "too_large",
  methodNotAllowed: "method_not_allowed",
  tooManyRequests: "too_many_requests",
  unavailable: "unavailable",
  internal: "internal",
  reverificationRequired: "reverification_required",
  /** The server could not be reached (offline, DNS, connection refused). */
  network: "network",
  /** The server answered something that is not the API's JSON (a proxy's HTML error page, …). */
  badResponse: "bad_response",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The code the client uses when an error body is missing, from the HTTP status alone. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return ERROR_CODES.invalid;
    case 401:
      return ERROR_CODES.unauthorized;
    case 403:
      return ERROR_CODES.forbidden;
    case 404:
      return ERROR_CODES.notFound;
    case 405:
      return ERROR_CODES.methodNotAllowed;
    case 409:
      return ERROR_CODES.conflict;
    case 413:
      return ERROR_CODES.tooLarge;
    case 429:
      return ERROR_CODES.tooManyRequests;
    case 502:
    case 503:
    case 504:
      return ERROR_CODES.unavailable;
    default:
      return status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badResponse;
  }
}

/** A field the server refused, with its (translated) message: {"path": "first_name", "message": …};
 * bodies checked against the shared schema also give its message key and params, which the forms
 * translate themselves (so the text follows the active language). */
export interface FieldProblem {
  path: string;
  message: string;
  key?: string;
  params?: Record<string, string | number>;
}

/** Every failed API call rejects with an ApiError. status is 0 when no answer arrived. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    /** One of ERROR_CODES in practice; a newer server may send a code this client does not know. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown; fields?: FieldProblem[]; retryAfter?: number | undefined },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.fields = options?.fields ?? [];
    this.retryAfter = options?.retryAfter;
  }

  /** Seconds to wait before trying again, from a 429's (or 503's) Retry-After header. */
  readonly retryAfter: number | undefined;

  /** The fields at fault, when the server names them (validation errors). */
  readonly fields: FieldProblem[];

  /** True when the server could not be reached at all. */
  get isNetwork(): boolean {
    return this.code === ERROR_CODES.network;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** Reads {"error":{"code","message","fields"?}}; anything else is not an API error body. */
export function parseErrorBody(body: unknown): { code: string; message: string; fields: FieldProblem[] } | null {
  if (typeof body !== "object" || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return null;
  const { code, message, fields } = error as { code?: unknown; message?: unknown; fields?: unknown };
  if (typeof code !== "string" || code === "") return null;
  const problems = Array.isArray(fields)
    ? fields.filter(
        (f): f is FieldProblem => typeof f === "object" && f !== null && typeof f.path === "string" && typeof f.message === "string",
      )
      .map((f) => ({
        path: f.path,
        message: f.message,
        ...(typeof f.key === "string" ? { key: f.key } : {}),
        ...(typeof f.params === "object" && f.params !== null ? { params: f.params } : {}),
      }))
    : [];
  return { code, message: typeof message === "string" ? message : "", fields: problems };
}

/** Retry-After in seconds (the delta form the server sends), or undefined. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^[0-9]{1,9}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** Asks the user for a fresh proof of identity; resolves true once given, false when cancelled. */
export type ReverificationHandler = () => Promise<boolean>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** false: a reverification_required answer is thrown at once (the dialog's own calls use it). */
  reverify?: boolean;
}

export interface ApiClientOptions {
  /** Prefix of every path; "/api/v1" (same origin) unless a test or another host needs otherwise. */
  baseUrl?: string;
  /** The fetch to use; the window's unless a test gives another. */
  fetch?: typeof fetch;
  /** The active UI language, sent as Accept-Language so server messages come back in it. */
  language: () => string;
}

/** A successful answer with what came around its body (paging headers, …). */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** Like request, but resolves with the status and headers too (X-Total-Count, Link, …). */
  exchange<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">): Promise<T>;
  delete<T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T>;
  /** Installs the re-verification dialog (one at a time); returns the function that removes it. */
  setReverificationHandler(handler: ReverificationHandler): () => void;
}

export const API_BASE_URL = "/api/v1";

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? API_BASE_URL;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let reverificationHandler: ReverificationHandler | null = null;
  // Several calls refused at once share one dialog.
  let pendingProof: Promise<boolean> | null = null;

  function askForProof(handler: ReverificationHandler): Promise<boolean> {
    pendingProof ??= handler().finally(() => {
      pendingProof = null;
    });
    return pendingProof;
  }

  async function send<T>(method: HttpMethod, path: string, opts: RequestOptions): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "Accept-Language": options.language(),
    };
    const init: RequestInit = { method, headers, credentials: "include", cache: "no-store" };
    if (opts.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    if (opts.signal) init.signal = opts.signal;

    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, init);
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
      throw new ApiError(0, ERROR_CODES.network, "The server cannot be reached.", { cause });
    }

    const text = await response.text().catch(() => "");
    let body: unknown = undefined;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    if (!response.ok) {
      const parsed = parseErrorBody(body);
      const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
      if (parsed) throw new ApiError(response.status, parsed.code, parsed.message, { fields: parsed.fields, retryAfter });
      throw new ApiError(response.status, codeForStatus(response.status), response.statusText || `HTTP ${response.status}`, { retryAfter });
    }
    const answer = { status: response.status, headers: response.headers };
    if (text === "") return { ...answer, data: undefined as T };
    if (body === undefined) {
      throw new ApiError(response.status, ERROR_CODES.badResponse, "The server's answer is not JSON.");
    }
    return { ...answer, data: body as T };
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    return (await exchange<T>(method, path, opts)).data;
  }

  async function exchange<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    try {
      return await send<T>(method, path, opts);
    } catch (error) {
      const handler = reverificationHandler;
      if (opts.reverify === false || !handler || !isApiError(error, ERROR_CODES.reverificationRequired)) throw error;
      const proven = await askForProof(handler);
      if (!proven) throw error;
      // Once only: a second refusal goes to the caller.
      return send<T>(method, path, opts);
    }
  }

  return {
    request,
    exchange,
    get: (path, opts) => request("GET", path, opts),
    post: (path, body, opts) => request("POST", path, { ...opts, body }),
    patch: (path, body, opts) => request("PATCH", path, { ...opts, body }),
    delete: (path, opts) => request("DELETE", path, opts),
    setReverificationHandler(handler) {
      reverificationHandler = handler;
      return () => {
        if (reverificationHandler === handler) reverificationHandler = null;
      };
    },
  };
}
