// What every command needs first: the paths, and the validated config (a bad value stops here
// with a message naming the key).
import { loadConfig, type Flags, type LoadedConfig } from "../shared/config/load.js";
import { resolvePaths, type Paths } from "../shared/paths.js";

export interface CliContext {
  paths: Paths;
  loaded: LoadedConfig;
}

export function cliContext(flags: Flags = {}): CliContext {
  const paths = resolvePaths();
  return { paths, loaded: loadConfig({ configFile: paths.configFile, flags }) };
}
