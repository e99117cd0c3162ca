/** The part of fontkit (pdfkit's font engine, which ships no types) that the PDF report uses. */
declare module "fontkit" {
  interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
