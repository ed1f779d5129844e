import { describe, expect, test } from "vitest";
import { ApiError, codeForStatus, createApiClient, ERROR_CODES, parseErrorBody } from "./client";

interface Seen {
  url: string;
  init: RequestInit;
}

/** A fetch that answers with the given responses in turn and records what it was asked. */
function scriptedFetch(...answers: (Response | Error | DOMException)[]) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    seen.push({ url: String(input), init: init ?? {} });
    const next = answers.shift();
    if (!next) throw new Error("no more answers scripted");
    if (next instanceof Response) return next;
    throw next;
  };
  return { fetch, seen };
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function client(fetch: typeof globalThis.fetch, language = "es") {
  return createApiClient({ fetch, language: () => language });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("the call did not fail");
}

describe("the API client's requests", () => {
  test("sends JSON with cookies and the active language, under /api/v1", async () => {
    const { fetch, seen } = scriptedFetch(jsonResponse(200, { ok: true }));
    const result = await client(fetch, "en").post<{ ok: boolean }>("/auth/signin", { email: "a@b.es", password: "x" });
    expect(result).toEqual({ ok: true });
    expect(seen).toHaveLength(1);
    const [{ url, init }] = seen as [Seen];
    expect(url).toBe("/api/v1/auth/signin");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    expect(init.body).toBe(JSON.stringify({ email: "a@b.es", password: "x" }));
    expect(init.headers).toMatchObject({
      "Content-Type": "application/json",
      Accept: "application/json",
      "Accept-Language": "en",
    });
  });

  test("reads the language at each call, so a switch applies at once", async () => {
    let language = "es";
    const { fetch, seen } = scriptedFetch(jsonResponse(200, {}), jsonResponse(200, {}));
    const api = createApiClient({ fetch, language: () => language });
    await api.get("/me");
    language = "en";
    await api.get("/me");
    expect(seen.map((s) => (s.init.headers as Record<string, string>)["Accept-Language"])).toEqual(["es", "en"]);
  });

  test("a call without a body sends no body and no JSON content type", async () => {
    const { fetch, seen } = scriptedFetch(new Response(null, { status: 204 }));
    await expect(client(fetch).post("/auth/signout")).resolves.toBeUndefined();
    expect(seen[0]?.init.body).toBeUndefined();
    expect(seen[0]?.init.headers).not.toHaveProperty("Content-Type");
  });
});

describe("the API client's errors", () => {
  test("an error body becomes an ApiError with the server's code, message and status", async () => {
    const { fetch } = scriptedFetch(jsonResponse(401, { error: { code: "unauthorized", message: "Correo o contraseña incorrectos." } }));
    const error = await failure(client(fetch).post("/auth/signin", {}));
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message]).toEqual([401, "unauthorized", "Correo o contraseña incorrectos."]);
    expect(error.isNetwork).toBe(false);
  });

  test("the fields a validation error names are kept, malformed ones dropped", async () => {
    const { fetch } = scriptedFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "Revisa los datos.",
          fields: [{ path: "first_name", message: "El primer nombre es requerido" }, { path: 3 }, "state"],
        },
      }),
    );
    const error = await failure(client(fetch).patch("/users/", {}));
    expect(error.fields).toEqual([{ path: "first_name", message: "El primer nombre es requerido" }]);
  });

  test("a code this client does not know is kept as sent", async () => {
    const { fetch } = scriptedFetch(jsonResponse(402, { error: { code: "payment_required", message: "Pay first." } }));
    const error = await failure(client(fetch).get("/stripe/products"));
    expect([error.status, error.code, error.message]).toEqual([402, "payment_required", "Pay first."]);
  });

  test.each([
    ["an HTML error page from a proxy", 502, "<html>Bad gateway</html>", "unavailable"],
    ["an empty 500", 500, "", "internal"],
    ["JSON that is not an error body", 404, '{"detail":"nope"}', "not_found"],
    ["an error body without a code", 429, '{"error":{"message":"slow down"}}', "too_many_requests"],
  ])("%s gets the code of its status", async (_name, status, body, code) => {
    const { fetch } = scriptedFetch(new Response(body, { status, statusText: "Something" }));
    const error = await failure(client(fetch).get("/me"));
    expect([error.status, error.code]).toEqual([status, code]);
  });

  test("no answer at all is a network error with status 0", async () => {
    const { fetch } = scriptedFetch(new TypeError("Failed to fetch"));
    const error = await failure(client(fetch).get("/me"));
    expect([error.status, error.code, error.isNetwork]).toEqual([0, ERROR_CODES.network, true]);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  test("an aborted call rejects with the AbortError itself, not as a network error", async () => {
    const { fetch } = scriptedFetch(new DOMException("aborted", "AbortError"));
    await expect(client(fetch).get("/me")).rejects.toMatchObject({ name: "AbortError" });
  });

  test("a success that is not JSON is a bad response", async () => {
    const { fetch } = scriptedFetch(new Response("<html>index</html>", { status: 200 }));
    const error = await failure(client(fetch).get("/me"));
    expect(error.code).toBe(ERROR_CODES.badResponse);
  });

  test("codeForStatus and parseErrorBody agree with the server's error shape", () => {
    expect([400, 401, 403, 404, 409, 413, 418, 503, 500].map(codeForStatus)).toEqual([
      "invalid",
      "unauthorized",
      "forbidden",
      "not_found",
      "conflict",
      "too_large",
      "bad_response",
      "unavailable",
      "internal",
    ]);
    expect(parseErrorBody({ error: { code: "conflict", message: "Taken." } })).toEqual({ code: "conflict", message: "Taken.", fields: [] });
    expect(parseErrorBody({ error: { code: "", message: "x" } })).toBeNull();
    expect(parseErrorBody({ error: "conflict" })).toBeNull();
    expect(parseErrorBody(null)).toBeNull();
  });
});

describe("re-verification", () => {
  const refused = () => jsonResponse(403, { error: { code: "reverification_required", message: "Confirma que eres tú." } });

  test("asks the handler for a proof and sends the call again once it is given", async () => {
    const { fetch, seen } = scriptedFetch(refused(), new Response(null, { status: 204 }));
    const api = client(fetch);
    let asked = 0;
    api.setReverificationHandler(async () => {
      asked++;
      return true;
    });
    await expect(api.delete("/auth/totp")).resolves.toBeUndefined();
    expect(asked).toBe(1);
    expect(seen.map((s) => `${s.init.method} ${s.url}`)).toEqual(["DELETE /api/v1/auth/totp", "DELETE /api/v1/auth/totp"]);
  });

  test("a cancelled proof rejects with the server's refusal and sends nothing more", async () => {
    const { fetch, seen } = scriptedFetch(refused());
    const api = client(fetch);
    api.setReverificationHandler(async () => false);
    const error = await failure(api.delete("/auth/totp"));
    expect(error.code).toBe("reverification_required");
    expect(seen).toHaveLength(1);
  });

  test("retries only once: a second refusal goes to the caller", async () => {
    const { fetch, seen } = scriptedFetch(refused(), refused());
    const api = client(fetch);
    let asked = 0;
    api.setReverificationHandler(async () => {
      asked++;
      return true;
    });
    const error = await failure(api.delete("/auth/passkeys/p1"));
    expect([error.code, asked, seen.length]).toEqual(["reverification_required", 1, 2]);
  });

  test("calls refused together share one dialog", async () => {
    const { fetch, seen } = scriptedFetch(refused(), refused(), jsonResponse(200, { a: 1 }), jsonResponse(200, { b: 2 }));
    const api = client(fetch);
    let asked = 0;
    let prove: (proven: boolean) => void = () => undefined;
    api.setReverificationHandler(() => {
      asked++;
      return new Promise<boolean>((resolve) => {
        prove = resolve;
      });
    });
    const both = Promise.all([api.delete("/x"), api.delete("/y")]);
    // Let both refusals arrive before the proof is given.
    await new Promise((resolve) => setTimeout(resolve, 0));
    prove(true);
    expect(await both).toEqual([{ a: 1 }, { b: 2 }]);
    expect(asked).toBe(1);
    expect(seen).toHaveLength(4);
  });

  test("without a handler, or with reverify: false, the refusal goes straight to the caller", async () => {
    const first = scriptedFetch(refused());
    expect((await failure(client(first.fetch).delete("/auth/totp"))).code).toBe("reverification_required");

    const second = scriptedFetch(refused());
    const api = client(second.fetch);
    let asked = 0;
    api.setReverificationHandler(async () => {
      asked++;
      return true;
    });
    expect((await failure(api.post("/auth/reverify", {}, { reverify: false }))).code).toBe("reverification_required");
    expect(asked).toBe(0);
  });

  test("removing the handler stops the dialog", async () => {
    const { fetch } = scriptedFetch(refused());
    const api = client(fetch);
    let asked = 0;
    const remove = api.setReverificationHandler(async () => {
      asked++;
      return true;
    });
    remove();
    await failure(api.delete("/auth/totp"));
    expect(asked).toBe(0);
  });
});

describe("exchange: the answer with its status and headers", () => {
  test("gives the paging headers beside the body", async () => {
    const { fetch, seen } = scriptedFetch(
      new Response(JSON.stringify([{ id: "u1" }]), {
        status: 200,
        headers: { "Content-Type": "application/json", "X-Total-Count": "41", Link: '</api/v1/admin/users?limit=25&offset=25>; rel="next"' },
      }),
    );
    const answer = await client(fetch).exchange<{ id: string }[]>("GET", "/admin/users?limit=25&offset=0");
    expect(answer.data).toEqual([{ id: "u1" }]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("X-Total-Count")).toBe("41");
    expect(answer.headers.get("Link")).toBe('</api/v1/admin/users?limit=25&offset=25>; rel="next"');
    expect(seen[0]?.url).toBe("/api/v1/admin/users?limit=25&offset=0");
  });

  test("an empty answer has no data but keeps its status and headers", async () => {
    const { fetch } = scriptedFetch(new Response(null, { status: 204, headers: { "Clear-Site-Data": '"storage"' } }));
    const answer = await client(fetch).exchange<void>("DELETE", "/users/");
    expect([answer.data, answer.status, answer.headers.get("Clear-Site-Data")]).toEqual([undefined, 204, '"storage"']);
  });

  test("fails like request, and is sent again after a proof like request", async () => {
    const { fetch, seen } = scriptedFetch(
      jsonResponse(403, { error: { code: "reverification_required", message: "Confirma que eres tú." } }),
      jsonResponse(202, { pendingEmail: "nueva@example.com" }),
      jsonResponse(409, { error: { code: "conflict", message: "No se puede usar esa dirección." } }),
    );
    const api = client(fetch);
    api.setReverificationHandler(async () => true);
    const answer = await api.exchange("POST", "/users/email", { body: { email: "nueva@example.com" } });
    expect([answer.status, answer.data]).toEqual([202, { pendingEmail: "nueva@example.com" }]);
    expect(seen).toHaveLength(2);
    const error = await failure(api.exchange("POST", "/users/email/verify", { body: { code: "123456" } }));
    expect([error.status, error.code, error.message]).toEqual([409, "conflict", "No se puede usar esa dirección."]);
  });
});
