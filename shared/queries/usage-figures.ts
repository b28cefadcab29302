// The figures every usage row carries (tokens by kind, cost, responses, unpriced responses), written
// out once: as the store's columns (SQL), as numbers being summed (Sums), and the helpers that zero,
// add and read them. The cells, the report's rows and the export all sum these same figures; a new
// one (a token kind) is added here and in the store, not in each reader.
import { finiteTotal } from "../base/usage-guard.js";

/** The figure columns of the usage tables, as SQL selects them (responses apart: each table counts them its own way). */
const COLUMNS = ["input", "output", "cache_read", "cache_write", "reasoning", "cost_usd", "unpriced"] as const;

/** The figure columns of a row as the store answers it (figureColumns, figureSums). */
export type FigureRow = Record<(typeof COLUMNS)[number], number>;

/** The same with the row's responses. */
export type FigureColumns = FigureRow & { responses: number };

/** Figures as they are added up (the report's rows, the export's rows). */
export interface Sums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  cost: number;
  responses: number;
  unpriced: number;
}

/** The token and cost figures a view shows (a session, a project, a usage report's row); every count an exact integer. */
export interface TokenFigures {
  /** input + output + cache write + cache read. */
  totalTokens: number;
  /** Input not read from cache. */
  inputTokens: number;
  /** Output, reasoning included. */
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The reasoning part of outputTokens (not added to totalTokens again). */
  reasoningTokens: number;
  /** USD of the priced responses; responses with no known price add nothing here (see unpricedResponses). */
  costUsd: number;
  /** Responses of models with no known price: their tokens count, their cost is not in costUsd. */
  unpricedResponses: number;
}

const qualified = (table: string, c: string): string => (table ? `${table}.${c}` : c);

/** `t.input, t.output, …`: the figure columns of table alias `t` (none: unqualified). */
export const figureColumns = (table = ""): string => COLUMNS.map((c) => qualified(table, c)).join(", ");

/** `sum(t.input) AS input, …`: the figure columns summed under their own names. */
export const figureSums = (table = ""): string => COLUMNS.map((c) => `sum(${qualified(table, c)}) AS ${c}`).join(", ");

export const zero = (): Sums => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, responses: 0, unpriced: 0 });

export function add(to: Sums, from: Sums): void {
  to.input += from.input;
  to.output += from.output;
  to.cacheRead += from.cacheRead;
  to.cacheWrite += from.cacheWrite;
  to.reasoning += from.reasoning;
  to.cost += from.cost;
  to.responses += from.responses;
  to.unpriced += from.unpriced;
}

/** A row's figures, finite and never negative even if an older version stored a poisoned row. */
export function sumsOf(r: FigureColumns): Sums {
  return {
    input: finiteTotal(r.input),
    output: finiteTotal(r.output),
    cacheRead: finiteTotal(r.cache_read),
    cacheWrite: finiteTotal(r.cache_write),
    reasoning: finiteTotal(r.reasoning),
    cost: finiteTotal(r.cost_usd),
    responses: finiteTotal(r.responses),
    unpriced: finiteTotal(r.unpriced),
  };
}
