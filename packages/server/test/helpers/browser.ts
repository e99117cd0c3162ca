import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect, inject } from "vitest";

/** Where browser tests save their screenshots (printed, so that a person can look at them). */
export const SCREENSHOTS = join(tmpdir(), "sightline-screenshots");

/** Chromium as the global setup found it (CHROMIUM_PATH, /usr/bin/chromium, or the npm build). */
export async function launchChromium(): Promise<Browser> {
  const found = inject("chromium");
  if ("missing" in found) throw new Error(found.missing);
  return chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// Evaluated through the DevTools protocol, which the page's Content-Security-Policy (script-src
// 'self', no inline scripts) does not apply to: the page is checked with its real policy on.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core on the page as it is now: no serious or critical violation (WCAG 2.x A/AA and best practice). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Colours still moving (a button's 150 ms transition after dark mode is switched on) would be
  // measured halfway: wait for the transitions, not for endless animations such as spinners.
  await page.evaluate(
    "Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => null)))",
  );
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate("axe.run(document).then((result) => result.violations)");
  const bad = (violations as AxeViolation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")})`),
    `axe on ${screen}`,
  ).toEqual([]);
}

/** Console errors and page errors, but the 401 a signed-out page's first request gets by design. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of 40[134]/.test(message.text())) problems.push(message.text());
  });
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("http://127.0.0.1") && !url.startsWith("data:") && url !== "about:blank") {
      problems.push(`request to elsewhere: ${url}`);
    }
  });
  return problems;
}
