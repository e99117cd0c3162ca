/** How two texts are compared for duplicates: width-, case- and spacing-insensitive. */
export const fold = (value: string) => value.normalize("NFKC").toLocaleLowerCase("en").replace(/\s+/g, " ").trim();

/** A name or prompt as stored: trimmed, inner whitespace collapsed. */
export const cleanText = (value: string) => value.trim().replace(/\s+/g, " ");
