import type { Project } from "@sightline/sdk";
import { createContext, useContext } from "react";
import type { BrandSearch, Period } from "../../lib/period.ts";

export interface BrandScope {
  workspaceId: string;
  project: Project;
  /** The workspace's plan engines (the engine filter and the forms offer these). */
  engines: readonly string[];
  /** Members and above create, edit and run; viewers read. */
  canEdit: boolean;
  /** The shared filters as in the URL, and the period they mean. */
  search: BrandSearch;
  period: Period;
}

const BrandContext = createContext<BrandScope | null>(null);

export const BrandProvider = BrandContext.Provider;

/** The brand of the page, loaded once by the brand layout. */
export function useBrand(): BrandScope {
  const brand = useContext(BrandContext);
  if (!brand) throw new Error("useBrand() is used outside a brand page");
  return brand;
}

/**
 * What a chart or an export covers: "Acme CRM · Last 30 days (1–30 Nov 2026, UTC) · All engines", and
 * "· Prompts tagged persona:cto" when a tag is chosen.
 */
export function scopeLine({ project, period, search }: BrandScope, engineLabel: (engine: string) => string): string {
  const range = period.custom ? period.label : `${period.label}, ${period.firstDay} to ${period.lastDay} UTC`;
  const tag = period.tag ? ` · Prompts tagged ${period.tag}` : "";
  return `${project.name} · ${range} · ${search.engine ? engineLabel(search.engine) : "All engines"}${tag}`;
}
