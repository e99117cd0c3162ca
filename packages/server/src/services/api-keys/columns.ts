import Type from "typebox";
import { StringEnum } from "../../lib/schema.ts";
import { storedAs } from "../validate.ts";
import { SCOPES } from "./scopes.ts";

/** The JSON column of `api_keys`, read through its schema. */
export const apiKeyColumns = {
  scopes: storedAs("api_keys.scopes", Type.Array(StringEnum(SCOPES))),
};
