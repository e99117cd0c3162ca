/**
 * An e-mail address as the server accepts it (packages/server/src/lib/email.ts, which has the last
 * word): a local part, `@`, and a domain of dot-separated labels ending in a top-level domain of two
 * letters or more. `maya@example` is refused before it is sent.
 */
const EMAIL =
  /^(?!\.)(?!.*\.\.)[^\s@"<>()[\]\\,;:\p{Cc}]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:\p{L}[\p{L}\p{M}]{1,62}|xn--[a-z0-9-]{1,59})$/iu;

export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
