// Which shared secret to present in `connect.params.auth`, from the already-parsed openclaw.json
// and the environment. Precedence is the gateway's own for a local gateway
// (docs/gateway/remote.md, docs/gateway/secrets/runtime-model.md): `gateway.auth.token` first,
// then OPENCLAW_GATEWAY_TOKEN; the same for password. Config values may be literal strings,
// `${VAR}` substitutions, or `{source:"env", id}` SecretRefs; file/exec SecretRefs cannot be
// resolved by a read-only monitor, so they fall through to the env variable.

export interface GatewayAuth {
  token?: string;
  password?: string;
  /** Where each value came from, for status output; never the value itself. */
  tokenFrom?: "config" | "env";
  passwordFrom?: "config" | "env";
}

export type AuthEnv = Record<string, string | undefined>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// "${OPENCLAW_GATEWAY_TOKEN}" style: any missing variable makes the whole value unresolved,
// because sending a half-substituted secret would only earn an auth failure.
function substituteEnv(value: string, env: AuthEnv): string | undefined {
  let missing = false;
  const out = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined || v === "") missing = true;
    return v ?? "";
  });
  return missing ? undefined : out;
}

/** Resolves one config secret input to a string, or undefined when absent/unresolvable. */
export function resolveSecretInput(value: unknown, env: AuthEnv): string | undefined {
  if (typeof value === "string") {
    const s = substituteEnv(value.trim(), env);
    return s ? s : undefined;
  }
  if (isRecord(value) && value.source === "env" && typeof value.id === "string") {
    const v = env[value.id];
    return v ? v : undefined;
  }
  return undefined;
}

/** The auth block for `connect`: config first, env as the fallback. */
export function resolveGatewayAuth(config: unknown, env: AuthEnv = process.env): GatewayAuth {
  const auth = isRecord(config) && isRecord(config.gateway) && isRecord(config.gateway.auth) ? config.gateway.auth : {};
  const out: GatewayAuth = {};
  const cfgToken = resolveSecretInput(auth.token, env);
  const envToken = env.OPENCLAW_GATEWAY_TOKEN?.trim();
  if (cfgToken) Object.assign(out, { token: cfgToken, tokenFrom: "config" });
  else if (envToken) Object.assign(out, { token: envToken, tokenFrom: "env" });
  const cfgPassword = resolveSecretInput(auth.password, env);
  const envPassword = env.OPENCLAW_GATEWAY_PASSWORD?.trim();
  if (cfgPassword) Object.assign(out, { password: cfgPassword, passwordFrom: "config" });
  else if (envPassword) Object.assign(out, { password: envPassword, passwordFrom: "env" });
  return out;
}
