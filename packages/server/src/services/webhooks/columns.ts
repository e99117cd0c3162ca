import Type from "typebox";
import { StringEnum } from "../../lib/schema.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { storedAs } from "../validate.ts";

/** The JSON columns of `webhook_endpoints`, read through their schemas. */
export const endpointColumns = {
  events: storedAs("webhook_endpoints.events", Type.Array(StringEnum(EVENT_TYPES))),
};
