/**
 * A JSON column: text on both dialects, written with `JSON.stringify` and read back through a check
 * of its shape, so that a row that does not hold what the code expects (a bug, a hand edit, a
 * half-applied migration) fails loudly where it is read instead of spreading wrong data.
 */
export interface JsonColumn<T> {
  /** The column's text as its value; a null column is an error. */
  read(text: string | null | undefined): T;
  /** The column's text as its value, or null when the column is null. */
  readNullable(text: string | null | undefined): T | null;
  write(value: T): string;
}

export class StoredDataError extends Error {
  constructor(column: string, problem: string) {
    super(`stored ${column} does not hold what it should: ${problem}`);
    this.name = "StoredDataError";
  }
}

/** A JSON column named `column` (for errors), whose values pass `check` (which says what is wrong, or null). */
export function jsonColumn<T>(column: string, check: (value: unknown) => string | null): JsonColumn<T> {
  const parse = (text: string): T => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new StoredDataError(column, "not JSON");
    }
    const problem = check(value);
    if (problem !== null) throw new StoredDataError(column, problem);
    return value as T;
  };
  return {
    read(text) {
      if (text === null || text === undefined) throw new StoredDataError(column, "null");
      return parse(text);
    },
    readNullable: (text) => (text === null || text === undefined ? null : parse(text)),
    write: (value) => JSON.stringify(value),
  };
}
