// The name this machine goes by in a fleet: insights_build_info{host}, the OTLP resource's
// host.name and the `host` column of `insightsctl export`. Config hostName, else the hostname.
import { hostname } from "node:os";
import type { Config } from "./options.js";

export function effectiveHostName(config: Pick<Config, "hostName">): string {
  if (config.hostName !== null) return config.hostName;
  const h = hostname().trim();
  return h === "" ? "localhost" : h;
}
