// What every command needs first: the paths, and the validated config (a bad value stops here
// with a message naming the key).
import { loadConfig, type Flags, type LoadedConfig } from "../shared/config/load.js";
import { resolvePaths, type Paths } from "../shared/base/paths.js";

interface CliContext {
  paths: Paths;
  loaded: LoadedConfig;
}

/** `atStart`: also the checks only a start needs (an explicitly configured OpenClaw dir exists). */
export function cliContext(flags: Flags = {}, { atStart = false }: { atStart?: boolean } = {}): CliContext {
  const paths = resolvePaths();
  return { paths, loaded: loadConfig({ configFile: paths.configFile, flags, atStart }) };
}
