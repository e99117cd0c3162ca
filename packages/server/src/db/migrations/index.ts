import type { Migration } from "../migrate.ts";
import * as foundation from "./2026-11-21-01-foundation.ts";

/** Every migration, oldest first. Append only. */
export const MIGRATIONS: Migration[] = [{ name: "2026-11-21-01-foundation", up: foundation.up }];
