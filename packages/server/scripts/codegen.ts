import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { sdkSources } from "./sdk-sources.ts";
import { webSources } from "./web-sources.ts";

/** Regenerates the SDK's types from the route definitions: `npm run codegen`. */
const root = resolve(import.meta.dirname, "../../sdk/src/generated");
for (const [file, text] of Object.entries(sdkSources())) {
  writeFileSync(resolve(root, file), text);
  console.log(`wrote packages/sdk/src/generated/${file}`);
}

const web = resolve(import.meta.dirname, "../../web/src/generated");
for (const [file, text] of Object.entries(webSources())) {
  writeFileSync(resolve(web, file), text);
  console.log(`wrote packages/web/src/generated/${file}`);
}
