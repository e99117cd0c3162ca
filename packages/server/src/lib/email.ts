/**
 * An e-mail address as Sightline accepts it, everywhere one is given (sign-up, invitations, the
 * operator's CLI, alert recipients): a local part without spaces, quotes or brackets, `@`, and a
 * domain of dot-separated labels ending in a top-level domain of two letters or more (or an IDN's
 * `xn--` form). `maya@example` is refused: no mail server on the Internet answers for it. The SMTP
 * server still has the last word on whether the address exists.
 */
const EMAIL =
  /^(?!\.)(?!.*\.\.)[^\s@"<>()[\]\\,;:\p{Cc}]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:\p{L}[\p{L}\p{M}]{1,62}|xn--[a-z0-9-]{1,59})$/iu;

/** Whether `text` (already trimmed) is an e-mail address, at most 254 characters. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
