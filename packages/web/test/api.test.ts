import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, fieldErrors, formErrors, setUnauthenticatedHandler, v1 } from "../src/lib/api.ts";

// The browser's fetch is the edge here: each test answers as the server would, on the wire.
function answer(status: number, body?: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
    body === undefined
      ? new Response(null, { status, headers })
      : new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } }),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error("expected an ApiError");
  return error;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthenticatedHandler(() => {});
});

describe("api()", () => {
  it("sends JSON with the session cookie and reads JSON back", async () => {
    const fetch = answer(201, { id: "ws_1" });
    await expect(api("/workspaces", { method: "POST", body: { name: "Acme" } })).resolves.toEqual({ id: "ws_1" });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("/app/api/workspaces");
    expect(init?.credentials).toBe("same-origin");
    expect(init?.body).toBe('{"name":"Acme"}');
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
  });

  it("sends no body and no content type when there is nothing to send", async () => {
    const fetch = answer(200, {});
    await api("/auth/sign-out", { method: "POST" });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).has("content-type")).toBe(false);
  });

  it("turns the error envelope into an ApiError with its field details", async () => {
    answer(400, {
      error: {
        code: "VALIDATION_ERROR",
        message: "The URL must be public.",
        request_id: "req_1",
        details: [{ field: "url", issue: "must be a public address" }, { issue: "no field" }],
      },
    });
    const error = await failure(api(v1("ws_1", "/webhooks"), { method: "POST", body: {} }));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", message: "The URL must be public." });
    expect(error.requestId).toBe("req_1");
    expect(fieldErrors(error)).toEqual({ url: "must be a public address" });
  });

  it("reads the authentication library's bare {code, message} too", async () => {
    answer(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    const error = await failure(api("/auth/sign-in/email", { method: "POST", body: {}, on401: "throw" }));
    expect(error).toMatchObject({
      status: 401,
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
  });

  it("sends the user to sign in on a 401, unless the caller expects one", async () => {
    const handler = vi.fn();
    setUnauthenticatedHandler(handler);
    answer(401, { error: { code: "UNAUTHENTICATED", message: "Sign in.", request_id: "r", details: [] } });
    await failure(api("/workspaces/ws_1/members"));
    expect(handler).toHaveBeenCalledTimes(1);
    await failure(api("/me", { on401: "throw" }));
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("says plainly to wait after too many attempts", async () => {
    answer(429, { code: "TOO_MANY_REQUESTS", message: "Too many requests" }, { "retry-after": "30" });
    expect((await failure(api("/auth/sign-in/email", { method: "POST", body: {} }))).message).toBe(
      "Too many attempts. Wait 30 seconds, then try again.",
    );
    answer(429, undefined);
    expect((await failure(api("/auth/sign-in/email", { method: "POST", body: {} }))).message).toBe(
      "Too many attempts. Wait a minute, then try again.",
    );
  });

  it("explains a server error or an unreachable server without technical detail", async () => {
    answer(502, undefined);
    expect((await failure(api("/me"))).message).toMatch(/went wrong on the server/);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect((await failure(api("/me"))).message).toMatch(/could not be reached/);
  });
});

describe("fieldErrors()", () => {
  it("names the top-level field of a nested path and keeps the first issue", () => {
    const error = new ApiError(400, "VALIDATION_ERROR", "Invalid", [
      { field: "events[0]", issue: "unknown event" },
      { field: "events[1]", issue: "second" },
      { field: "/name", issue: "too long" },
    ]);
    expect(fieldErrors(error)).toEqual({ events: "unknown event", name: "too long" });
  });
});

describe("formErrors()", () => {
  const error = new ApiError(400, "VALIDATION_ERROR", "url: must be a public address", [
    { field: "url", issue: "must be a public address" },
  ]);

  it("puts a known field's issue next to it and no message on top", () => {
    expect(formErrors(error, ["url", "events"])).toEqual({ fields: { url: "must be a public address" } });
  });

  it("keeps the message when the form has no such field", () => {
    expect(formErrors(error, ["name"])).toEqual({ fields: {}, message: "url: must be a public address" });
  });
});
