// Serving the dashboard's files (daemon/web) without a browser: the page's headers, gzip, a
// rebuild picked up without a restart, names that could climb out of assets/, and the answer of
// a copy whose dashboard was never built.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { WebAssets } from "../daemon/web/assets.js";
import { assetRoute, dashboardPage, PAGE_CSP } from "../daemon/web/routes.js";

test.after(removeTempDirs);

async function serve(assets: WebAssets): Promise<{ url: string; server: Server }> {
  const page = dashboardPage(assets);
  const asset = assetRoute(assets);
  const none = Buffer.alloc(0); // the request body the daemon's server would have read (these are GET routes)
  const server = createServer((req, res) => void ((req.url ?? "/").startsWith("/assets/") ? asset(req, res, none) : page(req, res, none)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test("a copy without dist/web answers 503 with a page that says to build it", async () => {
  const { url, server } = await serve(new WebAssets(makeTempDir()));
  try {
    const res = await fetch(`${url}/`);
    assert.is(res.status, 503);
    assert.match(await res.text(), /npm run build/);
    assert.is(res.headers.get("content-security-policy"), "default-src 'none'");
    assert.is((await fetch(`${url}/assets/index.js`)).status, 404);
  } finally {
    server.close();
  }
});

test("page and assets: CSP, cache headers, gzip, HEAD, and a rebuild without a restart", async () => {
  const root = makeTempDir();
  mkdirSync(join(root, "assets"));
  const html = (js: string): string => `<!doctype html><script type="module" src="/assets/${js}"></script>`;
  writeFileSync(join(root, "index.html"), html("index-aaaa.js"));
  writeFileSync(join(root, "assets", "index-aaaa.js"), "console.log('a');".repeat(200));
  writeFileSync(join(root, "assets", ".secret"), "no");
  const { url, server } = await serve(new WebAssets(root));
  try {
    const page = await fetch(`${url}/`);
    assert.is(page.status, 200);
    assert.is(page.headers.get("content-security-policy"), PAGE_CSP);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await page.text(), /index-aaaa\.js/);

    // fetch() decodes gzip itself; node:http shows the bytes as sent.
    const raw = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      get(`${url}/assets/index-aaaa.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
    assert.is(raw.status, 200);
    assert.is(raw.headers["content-encoding"], "gzip");
    assert.is(raw.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.match(String(raw.headers["content-type"]), /^text\/javascript/);
    assert.is(gunzipSync(raw.body).toString(), "console.log('a');".repeat(200));

    const head = await fetch(`${url}/assets/index-aaaa.js`, { method: "HEAD" });
    assert.is(head.status, 200);
    assert.is(await head.text(), "");

    for (const bad of ["/assets/.secret", "/assets/..%2Findex.html", "/assets/sub/index-aaaa.js", "/assets/"]) assert.is((await fetch(`${url}${bad}`)).status, 404, bad);

    // A rebuild replaces index.html and the hashed files: the next page load serves the new ones.
    writeFileSync(join(root, "assets", "index-bbbb.js"), "console.log('b');");
    writeFileSync(join(root, "index.html"), html("index-bbbb.js"));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, "index.html"), later, later);
    assert.match(await (await fetch(`${url}/`)).text(), /index-bbbb\.js/);
    assert.is(await (await fetch(`${url}/assets/index-bbbb.js`)).text(), "console.log('b');");
  } finally {
    server.close();
  }
});

test.run();
