/**
 * Loaded into a browser test's server process (`NODE_OPTIONS=--import …`): every name under
 * `.localhost` resolves to 127.0.0.1, as browsers resolve them (RFC 6761 §6.3), so that a local
 * website is reached by a domain name, which a brand's primary domain has to be. Any other name is
 * resolved as before.
 */
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";

const lookup = dns.promises.lookup;

dns.promises.lookup = (hostname, options) => {
  if (typeof hostname === "string" && hostname.toLowerCase().replace(/\.$/, "").endsWith(".localhost")) {
    const address = { address: "127.0.0.1", family: 4 };
    return Promise.resolve(typeof options === "object" && options?.all ? [address] : address);
  }
  return lookup(hostname, options);
};

syncBuiltinESMExports();
