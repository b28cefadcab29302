import fs from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { resolveGatewayAuth, resolveSecretInput } from "./gateway-auth.js";
import { TOOLS_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

test("the recorded gateway config's token is used, and says where it came from", () => {
  const text = fs.readFileSync(path.join(TOOLS_DIR, "openclaw.json"), "utf8");
  const config = JSON5.parse<{ gateway: { auth: { token: string } } }>(text);
  const auth = resolveGatewayAuth(config, {});
  assert.is(auth.token, config.gateway.auth.token);
  assert.is(auth.tokenFrom, "config");
  assert.is(auth.password, undefined);
});

test("config wins over OPENCLAW_GATEWAY_TOKEN; env is the fallback", () => {
  assert.is(resolveGatewayAuth({ gateway: { auth: { token: "cfg" } } }, { OPENCLAW_GATEWAY_TOKEN: "env" }).token, "cfg");
  const fromEnv = resolveGatewayAuth({ gateway: { auth: { mode: "token" } } }, { OPENCLAW_GATEWAY_TOKEN: " env " });
  assert.is(fromEnv.token, "env");
  assert.is(fromEnv.tokenFrom, "env");
  assert.equal(resolveGatewayAuth(null, {}), {});
  assert.equal(resolveGatewayAuth({ gateway: "nonsense" }, {}), {});
});

test("${VAR} substitution and env SecretRefs resolve; file refs fall through to env", () => {
  const env = { MY_TOK: "abc", OPENCLAW_GATEWAY_TOKEN: "fallback" };
  assert.is(resolveGatewayAuth({ gateway: { auth: { token: "${MY_TOK}" } } }, env).token, "abc");
  assert.is(resolveGatewayAuth({ gateway: { auth: { token: "${MISSING}" } } }, env).token, "fallback");
  assert.is(resolveGatewayAuth({ gateway: { auth: { token: { source: "env", provider: "default", id: "MY_TOK" } } } }, env).token, "abc");
  assert.is(resolveGatewayAuth({ gateway: { auth: { token: { source: "file", provider: "x", id: "/secret" } } } }, env).token, "fallback");
  assert.is(resolveSecretInput("", env), undefined);
  assert.is(resolveSecretInput(42, env), undefined);
});

test("password mode: config password, else OPENCLAW_GATEWAY_PASSWORD", () => {
  const a = resolveGatewayAuth({ gateway: { auth: { mode: "password", password: "pw" } } }, { OPENCLAW_GATEWAY_PASSWORD: "envpw" });
  assert.is(a.password, "pw");
  assert.is(a.passwordFrom, "config");
  const b = resolveGatewayAuth({ gateway: { auth: { mode: "password" } } }, { OPENCLAW_GATEWAY_PASSWORD: "envpw" });
  assert.is(b.password, "envpw");
  assert.is(b.passwordFrom, "env");
});

test.run();
