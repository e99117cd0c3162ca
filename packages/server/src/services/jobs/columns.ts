import Type from "typebox";
import { Dictionary } from "../../lib/schema.ts";
import { storedAs } from "../validate.ts";

/** The JSON column of `jobs`, read through its schema: a job kind reads its own payload's fields. */
export const jobColumns = {
  payload: storedAs("jobs.payload", Dictionary(Type.Unknown())),
};
