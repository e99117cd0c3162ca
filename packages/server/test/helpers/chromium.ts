import { execFile, execFileSync } from "node:child_process";
import { constants, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { access, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, createBrotliDecompress } from "node:zlib";

/** The Chromium the browser test launches, or what is missing. Plain data: it crosses from global setup to workers. */
export type ChromiumChoice =
  | { executablePath: string; env: Record<string, string>; description: string }
  | { missing: string };

const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const HOW_TO_INSTALL =
  "`apt-get install chromium` (then /usr/bin/chromium is used), CHROMIUM_PATH=/path/to/chromium, " +
  "or `npm install` on Linux x64 for the npm-shipped build (@sparticuz/chromium)";

/**
 * CHROMIUM_PATH, else /usr/bin/chromium, else the build shipped inside the @sparticuz/chromium npm package.
 * SIGHTLINE_TEST_CHROMIUM=npm skips the first two, so that the npm build can be checked on a machine that has both.
 */
export async function findChromium(): Promise<ChromiumChoice> {
  const npmOnly = process.env.SIGHTLINE_TEST_CHROMIUM === "npm";
  const configured = process.env.CHROMIUM_PATH;
  if (configured && !npmOnly) {
    if (!(await isExecutable(configured))) return { missing: `CHROMIUM_PATH=${configured} is not an executable file` };
    return withVersion(configured, {}, "CHROMIUM_PATH");
  }
  if (!npmOnly && (await isExecutable(SYSTEM_CHROMIUM))) return withVersion(SYSTEM_CHROMIUM, {}, "");
  const reason = npmOnly ? "SIGHTLINE_TEST_CHROMIUM=npm" : `no CHROMIUM_PATH and no ${SYSTEM_CHROMIUM}`;
  try {
    const unpacked = await unpackNpmChromium();
    if ("missing" in unpacked)
      return { missing: `Chromium not found (${reason}; ${unpacked.missing}): install it with ${HOW_TO_INSTALL}` };
    return withVersion(
      join(unpacked.dir, "chromium"),
      unpacked.env,
      `npm @sparticuz/chromium ${unpacked.version}, ${reason}`,
    );
  } catch (error) {
    return {
      missing: `Chromium: the npm-shipped build could not be unpacked (${String(error)}); install it with ${HOW_TO_INSTALL}`,
    };
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function withVersion(
  executablePath: string,
  env: Record<string, string>,
  origin: string,
): Promise<ChromiumChoice> {
  const version = await new Promise<string>((resolve) => {
    execFile(executablePath, ["--version"], { env: { ...process.env, ...env }, timeout: 15_000 }, (error, stdout) => {
      resolve(error ? `--version failed: ${error.message.split("\n")[0]}` : (stdout.trim().split("\n")[0] ?? ""));
    });
  });
  return { executablePath, env, description: `${executablePath} (${version}${origin ? `; ${origin}` : ""})` };
}

/**
 * @sparticuz/chromium ships a brotli-compressed Linux x64 Chromium with the NSS libraries and a font it needs. Its own
 * `executablePath()` unpacks into fixed names directly under the temp dir and trusts whatever it finds there, so it is
 * unpacked here instead: into a directory named after the package version, complete or not at all (rename at the end).
 */
async function unpackNpmChromium(): Promise<
  { dir: string; version: string; env: Record<string, string> } | { missing: string }
> {
  if (platform() !== "linux" || arch() !== "x64")
    return { missing: `no npm-shipped build for ${platform()}-${arch()}` };
  let packageDir: string;
  try {
    packageDir = join(dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "..", "..");
  } catch {
    return { missing: "@sparticuz/chromium is not installed" };
  }
  const bin = join(packageDir, "bin");
  if (!existsSync(join(bin, "chromium.br"))) return { missing: `${bin}/chromium.br is missing` };
  const { version } = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as { version: string };
  const dir = join(tmpdir(), `sightline-chromium-${version}`);
  const env = { LD_LIBRARY_PATH: join(dir, "al2023", "lib"), FONTCONFIG_FILE: join(dir, "fonts.conf") };
  if (existsSync(join(dir, "chromium"))) return { dir, version, env };

  const staging = await mkdtemp(`${dir}.partial-`);
  try {
    await pipeline(
      createReadStream(join(bin, "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(join(staging, "chromium"), { mode: 0o755 }),
    );
    // Amazon Linux's NSS libraries, which Debian has only with its own chromium package; a font, as fontconfig needs one.
    untarBrotli(join(bin, "al2023.tar.br"), join(staging, "al2023"));
    untarBrotli(join(bin, "fonts.tar.br"), join(staging, "fonts"));
    await writeFile(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<fontconfig>\n  <dir>${join(dir, "fonts", "fonts")}</dir>\n  <cachedir>${join(dir, "fontconfig-cache")}</cachedir>\n</fontconfig>\n`,
    );
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another run unpacked the same version at the same time.
    if (!existsSync(join(dir, "chromium"))) throw error;
  }
  return { dir, version, env };
}

function untarBrotli(archive: string, into: string): void {
  mkdirSync(into);
  execFileSync("tar", ["-x", "-C", into, "-f", "-"], { input: brotliDecompressSync(readFileSync(archive)) });
}
