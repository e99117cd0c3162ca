import { createContext, useContext } from "react";
import type { Agency } from "./agencies-api.ts";

const AgencyContext = createContext<Agency | null>(null);

export const AgencyProvider = AgencyContext.Provider;

/** The agency of the page, loaded once by the agency layout. */
export function useAgency(): Agency {
  const agency = useContext(AgencyContext);
  if (!agency) throw new Error("useAgency() is used outside an agency page");
  return agency;
}
