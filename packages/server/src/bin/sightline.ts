import { processIo } from "../cli/io.ts";
import { main } from "../cli/main.ts";

process.exitCode = await main(process.argv.slice(2), processIo);
