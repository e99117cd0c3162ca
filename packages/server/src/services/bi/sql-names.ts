/** A PostgreSQL identifier, quoted: safe whatever it holds. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A PostgreSQL string literal, quoted (standard_conforming_strings, on since 9.1). */
export function quoteLiteral(text: string): string {
  if (text.includes("\0")) throw new Error("a literal cannot hold a NUL character");
  return `'${text.replace(/'/g, "''")}'`;
}
