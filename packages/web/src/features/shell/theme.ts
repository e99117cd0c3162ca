import { useEffect, useState } from "react";

/** The user's choice of theme: the system's setting (by default), or always light or dark. */
export type ThemeChoice = "system" | "light" | "dark";

/** Where the choice is kept, in this browser; index.html's inline script reads the same key before the first paint. */
const STORAGE_KEY = "sightline-theme";

const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/**
 * Switches the theme at once: colour transitions (buttons animate theirs) are held off while the
 * class changes, so the page does not fade through half-light colours, and anything that reads
 * the colours right after the switch (an accessibility check) reads the final ones.
 */
function apply(choice: ThemeChoice): void {
  const dark = choice === "dark" || (choice === "system" && darkQuery().matches);
  const root = document.documentElement;
  if (root.classList.contains("dark") === dark && root.style.colorScheme !== "") return;
  const still = document.createElement("style");
  still.textContent = "*,*::before,*::after{transition:none!important}";
  document.head.appendChild(still);
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
  // Styles are computed with transitions off before they come back.
  void window.getComputedStyle(document.body).backgroundColor;
  requestAnimationFrame(() => requestAnimationFrame(() => still.remove()));
}

/** The theme chosen, and a way to change it: kept in localStorage, applied at once, following the system when asked. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(storedChoice);
  // index.html's script follows the system's changes while "system" is chosen.
  useEffect(() => apply(choice), [choice]);
  const choose = (next: ThemeChoice) => {
    try {
      if (next === "system") localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private browsing without storage: the choice lasts as long as the page.
    }
    setChoice(next);
  };
  return [choice, choose];
}
