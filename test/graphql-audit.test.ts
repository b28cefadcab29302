// The GraphQL-over-HTTP conformance audit of the official `graphql-http` package, run against
// /graphql of a real daemon (with the bearer token added to each request): no MUST may fail.
import { auditServer } from "graphql-http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

test("graphql-http server audit: every MUST passes", async () => {
  const d = await startDaemon();
  try {
    const fetchFn = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${d.token}`);
      return fetch(input, { ...init, headers });
    };
    const results = await auditServer({ url: `${d.url}/graphql`, fetchFn });
    const failedMust = results.filter((r) => r.status !== "ok" && r.name.startsWith("MUST"));
    assert.ok(results.length > 20, `the audit ran (${results.length} checks)`);
    assert.equal(failedMust.map((r) => `${r.id} ${r.name}: ${"reason" in r ? r.reason : ""}`), []);
    const summary = results.reduce<Record<string, number>>((acc, r) => ((acc[`${r.name.split(" ")[0]} ${r.status}`] = (acc[`${r.name.split(" ")[0]} ${r.status}`] ?? 0) + 1), acc), {});
    console.log("graphql-http audit:", JSON.stringify(summary));
  } finally {
    await d.stop();
  }
});

test.run();
