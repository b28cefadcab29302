// A render worker: a child process of the daemon that turns card models into SVG or PNG. Drawing
// a card holds the CPU for up to a few hundred ms and satori's and resvg's memory comes to a
// couple of hundred MB while drawing; in a child process neither touches the daemon's own event
// loop or memory, a native crash takes down only the worker, and an idle worker simply exits.
import type { CardModel } from "../../shared/snapshot/card-model.js";
import { renderCard, renderPages, type CardImageFormat } from "../../shared/snapshot/render.js";
import { warmRenderer } from "../../shared/snapshot/warm.js";

/** `render`: one image; `pages`: PNG pages no taller than `maxHeightPx` (for a model's eyes, over MCP). */
export type WorkerJob = { kind: "render"; model: CardModel; format: CardImageFormat } | { kind: "pages"; model: CardModel; maxHeightPx: number };
export type WorkerRequest = WorkerJob & { id: number };
export type WorkerReply = { id: number; ok: true; body?: Uint8Array; pages?: Uint8Array[]; ms: number } | { id: number; ok: false; code: string; message: string };

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.length);

// The pool passes how long to wait idle before a full garbage collection (WORKER_IDLE_COLLECT_MS
// in render-pool.ts, which says why); without it, or without --expose-gc, the worker never collects.
const idleCollectMs = Number(process.argv[2]);
const collect = Number.isFinite(idleCollectMs) ? (globalThis as { gc?: () => void }).gc : undefined;
let idleTimer: NodeJS.Timeout | undefined;

// The pool starts a worker as a snapshot begins: load the modules, the WebAssembly and the Latin
// fonts now, while the daemon collects the card's data. A failed warm-up is not fatal: the card's
// own render reports whatever is wrong.
const warm: Promise<unknown> = warmRenderer().catch(() => undefined);
let rendering = false;
void warm.then(() => {
  if (collect && !rendering) idleTimer = setTimeout(collect, idleCollectMs);
});

function reply(msg: WorkerReply): void {
  process.send?.(msg);
  rendering = false;
  if (collect) idleTimer = setTimeout(collect, idleCollectMs);
}

// Cards are drawn one at a time (the pool sends the next only after this one's reply).
process.on("message", (raw: unknown) => {
  const req = raw as WorkerRequest;
  clearTimeout(idleTimer);
  rendering = true;
  const started = performance.now();
  const work = warm.then(async (): Promise<Pick<Extract<WorkerReply, { ok: true }>, "body" | "pages">> => {
    if (req.kind === "pages") return { pages: (await renderPages(req.model, req.maxHeightPx)).map(bytes) };
    return { body: bytes(await renderCard(req.model, req.format)) };
  });
  work.then(
    (out) => reply({ id: req.id, ok: true, ...out, ms: Math.round(performance.now() - started) }),
    (err: unknown) => {
      const code = typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "RENDER_FAILED";
      reply({ id: req.id, ok: false, code, message: err instanceof Error ? err.message : String(err) });
    },
  );
});

// The daemon going away (even by kill -9) closes the IPC channel: follow it.
process.on("disconnect", () => process.exit(0));
