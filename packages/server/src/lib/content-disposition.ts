/**
 * `inline; filename="…"; filename*=UTF-8''…` (RFC 6266): the file name as written, for clients
 * that read RFC 5987's form, and an ASCII stand-in (accents dropped, the rest as "_") for those
 * that do not. A quote, a backslash or a line break can never reach the header.
 */
export function contentDisposition(filename: string, kind: "inline" | "attachment" = "inline"): string {
  const ascii = filename
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^ -~]/g, "_")
    .replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === filename
    ? `${kind}; filename="${ascii}"`
    : `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
