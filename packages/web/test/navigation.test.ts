import { describe, expect, it } from "vitest";
import { describeUserAgent } from "../src/features/account/user-agent.ts";
import { isPublicPath, safeRedirect } from "../src/lib/navigation.ts";

describe("safeRedirect", () => {
  it("returns to a path of this app and never to another site", () => {
    expect(safeRedirect("/w/ws_1/settings#members")).toBe("/w/ws_1/settings#members");
    expect(safeRedirect("//evil.example/")).toBeUndefined();
    expect(safeRedirect("/\\evil.example")).toBeUndefined();
    expect(safeRedirect("https://evil.example/")).toBeUndefined();
    expect(safeRedirect(42)).toBeUndefined();
  });

  it("knows which pages need no session", () => {
    expect(isPublicPath("/sign-in")).toBe(true);
    expect(isPublicPath("/invite/tok_1")).toBe(true);
    expect(isPublicPath("/w/ws_1")).toBe(false);
    expect(isPublicPath("/account")).toBe(false);
  });
});

describe("describeUserAgent", () => {
  it("reduces a user agent to browser and system", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      ),
    ).toBe("Chrome on macOS");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0",
      ),
    ).toBe("Edge on Windows");
    expect(describeUserAgent(null)).toBe("Unknown device");
  });
});
