const CENSOR = "[redacted]";

/**
 * Shapes of credentials, whoever they belong to: a bearer or basic token, an OpenAI-style `sk-…`
 * key (Anthropic's `sk-ant-…` too), Sightline's own keys, OAuth tokens, codes and client secrets, webhook secrets, Google, xAI and
 * Perplexity keys, and credentials in a URL's query or a JSON field. Vendors echo these in error
 * bodies ("Incorrect API key provided: sk-…"), sometimes with the middle masked by asterisks.
 */
const SHAPES: Array<[RegExp, string]> = [
  [/\b(Bearer)(\s+)[A-Za-z0-9._~+/=*-]{16,}/gi, `$1$2${CENSOR}`],
  [/\b(Basic)(\s+)[A-Za-z0-9+/]{16,}={0,2}/g, `$1$2${CENSOR}`],
  [/\bsk-[A-Za-z0-9_*-]{6,}/g, CENSOR],
  [/\bsl_(?:live|test|oat|ort|oac|ocs)_[A-Za-z0-9]{4,}/g, CENSOR],
  [/\bwhsec_[A-Za-z0-9+/=_-]{4,}/g, CENSOR],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, CENSOR],
  [/\b(?:xai|pplx)-[A-Za-z0-9_*-]{10,}/g, CENSOR],
  [/([?&;](?:api[_-]?key|key|token|access_token|auth|secret|password)=)[^&\s"'<>]+/gi, `$1${CENSOR}`],
  [
    /((?:\\?")(?:api[_-]?key|apiKey|x-api-key|token|access_token|secret|password|authorization)(?:\\?")\s*:\s*(?:\\?"))(?:[^"\\]|\\[^"])+/gi,
    `$1${CENSOR}`,
  ],
];

/** Known secrets shorter than this are not looked for: they would censor ordinary words. */
const MIN_SECRET_LENGTH = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Scrubs secrets out of text that came from outside (a vendor's error, a webhook receiver's
 * answer) before it is stored, served or logged: every secret this server was configured with,
 * and anything shaped like a credential.
 */
export class Redactor {
  readonly #secrets: string[];
  readonly #known: RegExp | null;

  constructor(secrets: Iterable<string | null | undefined> = []) {
    const unique = new Set<string>();
    for (const secret of secrets) {
      if (typeof secret === "string" && secret.trim().length >= MIN_SECRET_LENGTH) unique.add(secret.trim());
    }
    // Longest first, so that a secret containing another is censored whole.
    this.#secrets = [...unique].sort((a, b) => b.length - a.length);
    this.#known = this.#secrets.length === 0 ? null : new RegExp(this.#secrets.map(escapeRegExp).join("|"), "g");
  }

  /** This redactor plus more secrets (a webhook subscription's own, say). */
  with(secrets: Iterable<string | null | undefined>): Redactor {
    return new Redactor([...this.#secrets, ...secrets]);
  }

  scrub(text: string): string {
    let scrubbed = this.#known === null ? text : text.replace(this.#known, CENSOR);
    for (const [shape, replacement] of SHAPES) scrubbed = scrubbed.replace(shape, replacement);
    return scrubbed;
  }

  /** Only the configured secrets, for text whose credential-like words may be legitimate (an answer). */
  scrubKnown(text: string): string {
    return this.#known === null ? text : text.replace(this.#known, CENSOR);
  }
}
