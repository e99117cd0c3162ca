import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The whole page fits the viewport's width: nothing to scroll sideways (tables scroll in their own box). */
export async function expectNoSidewaysScroll(page: Page, width: number, screen: string): Promise<void> {
  const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
  expect(scrollWidth, `${screen} at ${width} px is wider than the screen`).toBeLessThanOrEqual(width);
}
