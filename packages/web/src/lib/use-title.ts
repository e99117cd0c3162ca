import { useEffect } from "react";

/** Names the browser tab (and what screen readers announce for the page). */
export function useTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Sightline` : "Sightline";
  }, [title]);
}
