import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (8-bit RGB) any decoder opens: `width` × `height` of one colour, or of noise (which
 * does not compress, for a large file); `padTo` adds a text chunk so that the file has exactly
 * that many bytes.
 */
export function png(
  options: { width?: number; height?: number; rgb?: [number, number, number]; noise?: boolean; padTo?: number } = {},
): Buffer {
  const { width = 8, height = 8, rgb = [0x12, 0x9e, 0x6b], noise = false } = options;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = noise ? randomBytes(width * 3) : Buffer.alloc(width * 3);
    if (!noise) for (let x = 0; x < width; x++) row.set(rgb, x * 3);
    rows.push(Buffer.concat([Buffer.from([0]), row]));
  }
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
  ];
  const end = chunk("IEND", Buffer.alloc(0));
  const size = parts.reduce((sum, part) => sum + part.length, 0) + end.length;
  if (options.padTo !== undefined) {
    const room = options.padTo - size - 12 - "Comment\0".length;
    if (room < 0) throw new Error(`a PNG of ${options.padTo} bytes cannot hold ${size}`);
    parts.push(chunk("tEXt", Buffer.concat([Buffer.from("Comment\0", "latin1"), Buffer.alloc(room, 0x61)])));
  }
  return Buffer.concat([...parts, end]);
}

/** The same bytes as a browser's file reader gives them. */
export function dataUrl(bytes: Buffer, mime = "image/png"): string {
  return `data:${mime};base64,${bytes.toString("base64")}`;
}

/** A GIF's first bytes: an image, but not one a logo may be. */
export const GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/** A JPEG's first bytes (SOI, then an APP0 JFIF segment): enough for what is checked. */
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from("JFIF\0", "latin1"),
  Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
]);
