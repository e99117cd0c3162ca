import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  appCall,
  fieldErrors,
  formErrors,
  setUnauthenticatedHandler,
  v1Call,
  v1Url,
} from "../src/lib/api.ts";

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

describe("the generated client", () => {
  it("sends JSON with the session cookie and reads JSON back", async () => {
    const fetch = answer(201, { id: "ws_1" });
    await expect(appCall("createWorkspace", { body: { name: "Acme" } })).resolves.toEqual({ id: "ws_1" });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("/app/api/workspaces");
    expect(init?.credentials).toBe("same-origin");
    expect(init?.body).toBe('{"name":"Acme"}');
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
  });

  it("sends no body and no content type when there is nothing to send", async () => {
    const fetch = answer(200, {});
    await appCall("signOut", {});
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
    const error = await failure(
      v1Call("ws_1", "createWebhook", { body: { url: "http://127.0.0.1/hook", events: ["project.created"] } }),
    );
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", message: "The URL must be public." });
    expect(error.requestId).toBe("req_1");
    expect(fieldErrors(error)).toEqual({ url: "must be a public address" });
  });

  it("reads the authentication library's bare {code, message} too", async () => {
    answer(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    const error = await failure(appCall("signIn", { body: { email: "a@b.c", password: "x" } }, { on401: "throw" }));
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
    await failure(appCall("listMembers", { params: { workspace: "ws_1" } }));
    expect(handler).toHaveBeenCalledTimes(1);
    await failure(appCall("getMe", {}, { on401: "throw" }));
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("says plainly to wait after too many attempts", async () => {
    answer(429, { code: "TOO_MANY_REQUESTS", message: "Too many requests" }, { "retry-after": "30" });
    const signIn = () => appCall("signIn", { body: { email: "a@b.c", password: "x" } });
    expect((await failure(signIn())).message).toBe("Too many attempts. Wait 30 seconds, then try again.");
    answer(429, undefined);
    expect((await failure(signIn())).message).toBe("Too many attempts. Wait a minute, then try again.");
  });

  it("explains a server error or an unreachable server without technical detail", async () => {
    answer(502, undefined);
    expect((await failure(appCall("getMe", {}))).message).toMatch(/went wrong on the server/);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect((await failure(appCall("getMe", {}))).message).toMatch(/could not be reached/);
  });
});

describe("URLs made from the operations' paths", () => {
  it("fills path parameters, encoded, and writes the query, leaving out what is undefined", async () => {
    const fetch = answer(200, { data: [] });
    await v1Call("ws_1", "listResults", {
      query: { project_id: "prj 1", limit: 5, mentioned: false, engine: undefined },
    });
    await appCall("removeMember", { params: { workspace: "ws_1", user_id: "usr/2" } });
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${url}`)).toEqual([
      "GET /app/api/workspaces/ws_1/v1/results?project_id=prj+1&limit=5&mentioned=false",
      "DELETE /app/api/workspaces/ws_1/members/usr%2F2",
    ]);
    expect(v1Url("ws_1", "getReport", { params: { id: "rpt_1" }, query: { format: "csv" } })).toBe(
      "/app/api/workspaces/ws_1/v1/reports/rpt_1?format=csv",
    );
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
