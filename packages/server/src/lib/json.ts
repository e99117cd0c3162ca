/** JSON columns are text on both dialects; reads go through their schemas (`storedAs`, db/json-column.ts). */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
