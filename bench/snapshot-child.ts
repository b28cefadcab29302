// Child process of the snapshot suite: warm render times of the status card per detail and
// format, through renderCard (what the daemon's render workers run) and through a bare satori ->
// resvg render of the same element tree with the same fonts and options, interleaved in one
// process so both see the same machine. Runs on plain node against dist/ (bench/child.ts).
import * as fs from "node:fs";
import { renderAsync } from "@resvg/resvg-js";
import satori from "satori";
import type { CardModel } from "../shared/snapshot/card-model.js";
import { allCardFonts } from "../shared/snapshot/fonts.js";
import { cardElement } from "../shared/snapshot/layout/card.js";
import { CARD_WIDTH } from "../shared/snapshot/layout/primitives.js";
import { PNG_SCALE, renderCard } from "../shared/snapshot/render.js";
import { childInput, reply } from "./child-reply.js";
import { memorySnapshot } from "./memory.js";
import type { Detail, ImageFormat, RenderTiming, RenderTimingInput, RenderTimingResult } from "./snapshot-protocol.js";
import { since } from "./stats.js";

const DETAILS: readonly Detail[] = ["compact", "standard", "full"];
const FORMATS: readonly ImageFormat[] = ["svg", "png"];

async function timing(input: RenderTimingInput): Promise<RenderTimingResult> {
  const models = JSON.parse(fs.readFileSync(input.modelsFile, "utf8")) as Record<Detail, CardModel>;
  // Every bundled font, as satori would be given them without per-card font picking: the bytes must still match.
  const fonts = await allCardFonts();
  type Tree = Parameters<typeof satori>[0];
  const bare = async (tree: Tree, format: ImageFormat): Promise<Buffer> => {
    const svg = await satori(tree, { width: CARD_WIDTH, fonts, embedFont: true, pointScaleFactor: PNG_SCALE });
    if (format === "svg") return Buffer.from(svg, "utf8");
    const image = await renderAsync(svg, { fitTo: { mode: "zoom", value: PNG_SCALE }, font: { loadSystemFonts: false }, logLevel: "off" });
    return image.asPng();
  };

  const cold = performance.now();
  await renderCard(models.standard, "png");
  const coldMs = since(cold);

  const kinds = DETAILS.flatMap((detail) => FORMATS.map((format) => ({ detail, format })));
  const out: RenderTiming[] = [];
  const trees = new Map<Detail, Tree>();
  for (const { detail, format } of kinds) {
    const model = models[detail];
    if (!model) throw new Error(`no ${detail} card model in ${input.modelsFile}`);
    // satori types its input as a React node; plain {type, props} objects are what it takes.
    const tree = cardElement(model) as unknown as Tree;
    trees.set(detail, tree);
    const a = await renderCard(model, format);
    const b = await bare(tree, format);
    out.push({ detail, format, oursMs: [], bareMs: [], treeMs: [], bytes: a.length, identical: a.equals(b) });
  }
  for (let i = 0; i < input.warmup; i++) {
    for (const { detail, format } of kinds) {
      await renderCard(models[detail], format);
      await bare(trees.get(detail) as Tree, format);
    }
  }
  for (let i = 0; i < input.reps; i++) {
    // Every kind once per round, ours and bare back to back in alternating order.
    for (const t of out) {
      const model = models[t.detail];
      const tree = trees.get(t.detail) as Tree;
      const timeOurs = async (): Promise<void> => {
        const s = performance.now();
        await renderCard(model, t.format);
        t.oursMs.push(since(s));
      };
      const timeBare = async (): Promise<void> => {
        const s = performance.now();
        await bare(tree, t.format);
        t.bareMs.push(since(s));
      };
      if (i % 2 === 0) {
        await timeOurs();
        await timeBare();
      } else {
        await timeBare();
        await timeOurs();
      }
      const s = performance.now();
      cardElement(model);
      t.treeMs.push(since(s));
    }
  }
  return { timings: out, coldMs, memory: memorySnapshot() };
}

reply(() => timing(childInput<RenderTimingInput>()));
