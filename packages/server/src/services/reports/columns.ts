import { storedAs } from "../validate.ts";
import { StoredReportDataSchema } from "./schemas.ts";

/** The JSON column of `reports`, read through its schema. */
export const reportColumns = {
  data: storedAs("reports.data", StoredReportDataSchema),
};
