// The plan gauges' arcs (web/src/lib/gauge.ts), as an SVG renderer reads them: the centre an arc
// command implies (SVG 1.1 appendix F.6.5, endpoint to centre) must be the dial's centre, and the
// arc must run over the top. Above 50 % the large-arc flag made the renderer take the other arc
// through the same two points, centred below the dial: the fill swung down under it.
//
// The module is loaded at run time by path: it belongs to the browser's typecheck (web/tsconfig).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ROOT } from "./helpers/cli.js";

interface GaugeModule {
  gaugeArc(f: number): string;
}
const { gaugeArc } = (await import(pathToFileURL(join(ROOT, "web/src/lib/gauge.ts")).href)) as GaugeModule;

// The dial the component draws: viewBox 0 0 160 92, the half circle's ends at (16, 80) and (144, 80).
const LEFT: [number, number] = [16, 80];
const RIGHT: [number, number] = [144, 80];
const CENTRE: [number, number] = [(LEFT[0] + RIGHT[0]) / 2, LEFT[1]];
const R = (RIGHT[0] - LEFT[0]) / 2;

interface Arc {
  start: [number, number];
  r: number;
  largeArc: number;
  sweep: number;
  end: [number, number];
}

function parse(d: string): Arc {
  const n = "(-?[\\d.]+)";
  const m = new RegExp(`^M${n},${n} A${n},${n} 0 ([01]) ([01]) ${n},${n}$`).exec(d);
  assert.ok(m, `an arc path: ${d}`);
  const v = (i: number): number => Number(m[i]);
  assert.is(v(3), v(4), "a circular arc");
  return { start: [v(1), v(2)], r: v(3), largeArc: v(5), sweep: v(6), end: [v(7), v(8)] };
}

/** The centre the renderer picks for the arc (F.6.5 with no rotation and equal radii). */
function centreOf(a: Arc): [number, number] {
  const [x1, y1] = a.start;
  const [x2, y2] = a.end;
  const x1p = (x1 - x2) / 2;
  const y1p = (y1 - y2) / 2;
  const r2 = a.r * a.r;
  const d2 = x1p * x1p + y1p * y1p;
  const k = Math.sqrt(Math.max(0, (r2 - d2) / d2)) * (a.largeArc === a.sweep ? -1 : 1);
  return [k * y1p + (x1 + x2) / 2, -k * x1p + (y1 + y2) / 2];
}

/** The angle the renderer sweeps from start to end (F.6.5: sweep 1 turns positive, clockwise on screen). */
function sweptAngle(a: Arc, [cx, cy]: [number, number]): number {
  const t1 = Math.atan2(a.start[1] - cy, a.start[0] - cx);
  const t2 = Math.atan2(a.end[1] - cy, a.end[0] - cx);
  let d = t2 - t1;
  if (a.sweep === 1 && d < 0) d += 2 * Math.PI;
  if (a.sweep === 0 && d > 0) d -= 2 * Math.PI;
  return d;
}

// The path's points have two decimals: near a full half circle that moves the implied centre a little.
const near = (a: number, b: number, what: string, within = 0.1): void => assert.ok(Math.abs(a - b) < within, `${what}: ${a} is not ${b}`);

test("0, 49, 51, 99 and 100 %: the arc starts at the left end, ends at its share, is centred on the dial and runs over the top", () => {
  for (const percent of [0, 49, 51, 99, 100]) {
    const a = parse(gaugeArc(percent / 100));
    const angle = Math.PI * (percent / 100);
    assert.equal(a.start, LEFT, `${percent} %: start`);
    assert.is(a.r, R, `${percent} %: radius`);
    near(a.end[0], CENTRE[0] - R * Math.cos(angle), `${percent} %: end x`, 0.006);
    near(a.end[1], CENTRE[1] - R * Math.sin(angle), `${percent} %: end y`, 0.006);
    if (percent === 0) continue; // a point: nothing is drawn (the component draws no fill at 0)
    assert.is(a.largeArc, 0, `${percent} %: never more than half a circle`);
    assert.is(a.sweep, 1, `${percent} %: clockwise on screen, up from the left end`);
    const [cx, cy] = centreOf(a);
    near(cx, CENTRE[0], `${percent} %: centre x`);
    near(cy, CENTRE[1], `${percent} %: centre y`);
    // The share of the half circle that is drawn, and drawn above the centre line.
    near(sweptAngle(a, [cx, cy]), angle, `${percent} %: angle swept`, 0.01);
  }
});

test("out-of-range shares are held to the dial", () => {
  assert.is(gaugeArc(1.7), gaugeArc(1));
  assert.is(gaugeArc(-0.2), gaugeArc(0));
});

test.run();
