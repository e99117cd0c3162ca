/** What the server takes (it checks the bytes again): a PNG or a JPEG of at most 200 kB. */
const LOGO_MAX_BYTES = 200_000;
const TYPES = ["image/png", "image/jpeg"];

/** The file as a data URL, or what is wrong with it, in words a marketer reads without help. */
export async function readLogo(file: File): Promise<{ url: string } | { problem: string }> {
  if (!TYPES.includes(file.type)) {
    return { problem: "Choose a PNG or JPEG image (export an SVG or PDF logo as PNG first)." };
  }
  if (file.size > LOGO_MAX_BYTES) {
    return {
      problem: `This file is ${Math.ceil(file.size / 1000)} kB; a logo may be 200 kB at most. Save it smaller (about 400 px wide is plenty).`,
    };
  }
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
  return { url };
}
