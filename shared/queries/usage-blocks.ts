// 5-hour billing blocks, as Claude's plans count usage and as ccusage's `blocks` report draws them
// (docs/usage.md): a block starts at its first response floored to the UTC hour and lasts 5 hours;
// a response more than 5 hours after the block's start, or more than 5 hours after the previous
// response, starts a new block, and a silence longer than 5 hours between two blocks is a gap. A
// block is active while it has not ended and its last response is less than 5 hours old; its burn
// rate runs from its first to its last response, and the projection carries that rate on to the
// block's end: an estimate, said as one.
import { HOUR, MINUTE } from "./time.js";

const BLOCK_MS = 5 * HOUR;

interface BlockSpan {
  /** First response floored to the hour (epoch ms), and start + 5 h. */
  start: number;
  end: number;
  /** Its first and last response. */
  first: number;
  last: number;
  /** Index range [from, to) into the sorted times it was cut from. */
  from: number;
  to: number;
  active: boolean;
}

interface GapSpan {
  /** Five hours after the last response before it, to the next response. */
  start: number;
  end: number;
}

const floorHour = (ms: number): number => Math.floor(ms / HOUR) * HOUR;

/** The blocks of `times` (ascending epoch ms) and the gaps between them, in order, as of `now`. */
export function blockSpans(times: readonly number[], now: number, length = BLOCK_MS): Array<({ kind: "block" } & BlockSpan) | ({ kind: "gap" } & GapSpan)> {
  const out: Array<({ kind: "block" } & BlockSpan) | ({ kind: "gap" } & GapSpan)> = [];
  let from = 0;
  const close = (to: number): void => {
    const first = times[from] as number;
    const last = times[to - 1] as number;
    const start = floorHour(first);
    const end = start + length;
    out.push({ kind: "block", start, end, first, last, from, to, active: now - last < length && now < end });
  };
  for (let i = 1; i < times.length; i++) {
    const t = times[i] as number;
    const prev = times[i - 1] as number;
    if (t - floorHour(times[from] as number) <= length && t - prev <= length) continue;
    close(i);
    if (t - prev > length) out.push({ kind: "gap", start: prev + length, end: t });
    from = i;
  }
  if (times.length) close(times.length);
  return out;
}

interface BurnRate {
  tokensPerMinute: number;
  costPerHour: number;
}

/** Tokens a minute and USD an hour from the block's first to its last response; null when they are one instant. */
export function burnRate(span: Pick<BlockSpan, "first" | "last">, tokens: number, cost: number): BurnRate | null {
  const minutes = (span.last - span.first) / MINUTE;
  if (!(minutes > 0)) return null;
  return { tokensPerMinute: tokens / minutes, costPerHour: (cost / minutes) * 60 };
}

interface BlockProjection {
  /** Always true: the pace so far carried on to the block's end, not a measurement. */
  estimate: true;
  /** When the block ends (epoch ms); the figures are what it would hold then. */
  endsAt: number;
  remainingMinutes: number;
  totalTokens: number;
  costUsd: number;
}

/** The active block's figures at its end if the burn rate holds. */
export function projectBlock(span: Pick<BlockSpan, "end">, tokens: number, cost: number, rate: BurnRate, now: number): BlockProjection {
  const remainingMinutes = Math.max(0, (span.end - now) / MINUTE);
  return {
    estimate: true,
    endsAt: span.end,
    remainingMinutes: Math.round(remainingMinutes),
    totalTokens: Math.round(tokens + rate.tokensPerMinute * remainingMinutes),
    costUsd: cost + (rate.costPerHour / 60) * remainingMinutes,
  };
}
