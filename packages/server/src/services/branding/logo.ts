import type { ErrorDetail } from "../../errors/api-error.ts";

/**
 * A logo is a PNG or a JPEG of at most 200 kB (as a file manager counts them), nothing else: it is
 * drawn into PDFs, shown on public pages and attached to e-mails, and an SVG can carry scripts.
 */
export const LOGO_MAX_BYTES = 200_000;

export type LogoMime = "image/png" | "image/jpeg";

interface Logo {
  mime: LogoMime;
  /** The bytes, in base64. */
  base64: string;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** What a data URL may say it holds; what it holds is checked on its bytes. */
const DECLARED = new Set(["image/png", "image/jpeg", "image/jpg", "image/pjpeg"]);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

function startsWith(bytes: Buffer, signature: readonly number[]): boolean {
  return bytes.length > signature.length && signature.every((byte, index) => bytes[index] === byte);
}

/** What the bytes are, whatever they were called: a file named `.png` may hold a JPEG. */
function sniffLogo(bytes: Buffer): LogoMime | null {
  // A PNG's first chunk is its header, which gives its size: a signature alone is not an image.
  if (startsWith(bytes, PNG_SIGNATURE)) {
    const header = bytes.length >= 24 && bytes.toString("latin1", 12, 16) === "IHDR";
    return header && bytes.readUInt32BE(16) > 0 && bytes.readUInt32BE(20) > 0 ? "image/png" : null;
  }
  if (startsWith(bytes, JPEG_SIGNATURE)) return "image/jpeg";
  return null;
}

/**
 * A logo sent as a data URL (`data:image/png;base64,…`, what a browser's file reader gives) or as
 * bare base64, checked; or the problem with it, under `field`.
 */
export function parseLogo(input: string, field: string): Logo | ErrorDetail {
  const match = DATA_URL.exec(input.trim());
  if (match !== null && !DECLARED.has((match[1] ?? "").toLowerCase())) {
    return { field, issue: `must be a PNG or JPEG image, not ${match[1]}` };
  }
  const base64 = (match === null ? input : (match[2] ?? "")).replace(/\s+/g, "");
  if (base64 === "" || base64.length % 4 === 1 || !BASE64.test(base64)) {
    return { field, issue: "must be a data URL (data:image/png;base64,…) or base64 of a PNG or JPEG image" };
  }
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length > LOGO_MAX_BYTES) {
    return {
      field,
      issue: `must be at most ${LOGO_MAX_BYTES / 1000} kB (this one is ${Math.ceil(bytes.length / 1000)} kB)`,
    };
  }
  const mime = sniffLogo(bytes);
  if (mime === null) return { field, issue: "must be a PNG or JPEG image: its content is neither" };
  // Stored as read back from the bytes: padding and line breaks as sent are not kept.
  return { mime, base64: bytes.toString("base64") };
}

export function isLogo(value: Logo | ErrorDetail): value is Logo {
  return "base64" in value;
}

/** The logo as the renderers and the dashboard take it. */
export function logoDataUrl(logo: Logo): string {
  return `data:${logo.mime};base64,${logo.base64}`;
}
