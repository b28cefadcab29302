// Which rollout lines are worth parsing, decided from a line's first bytes (line-reader's `keep`).
// Every 0.169 line starts `{"timestamp":"…","ordinal":N,"type":"T","payload":{"type":"S",…`
// (codex-format.md §4). Most bytes of a rollout are lines the monitor never uses: the 20 KB
// `session_meta` instructions aside, `world_state` snapshots, `compacted.replacement_history`,
// reasoning and model messages. A line is skipped only when its head says for certain what it is;
// anything else is kept and JSON.parse decides (a corrupt line then becomes a BAD_JSON warning).
import { bytesAre, findBytes as find, OPEN_BRACE, plainStringAt, QUOTE } from "../jsonl/json-head.js";
import { isToolCallType, isToolOutputType } from "./shape.js";

/** Bytes of a line the classifier sees: enough to reach `"item":{"type":…}` of an item_completed line. */
export const CLASSIFY_PEEK_BYTES = 512;

export interface LineHead {
  /** The envelope `type`. */
  type: string;
  /** `payload.type`, when the head shows it. */
  sub: string | null;
  /** `payload.item.type` of an `item_completed`, when the head shows it. */
  item: string | null;
}

const TYPE_KEY = Buffer.from('"type":"');
const PAYLOAD_KEY = Buffer.from('"payload":');
const PAYLOAD_TYPE = Buffer.from('"payload":{"type":"');
/** The same right after the envelope's type value: `,"payload":{"type":"`. */
const NEXT_PAYLOAD_TYPE = Buffer.from(',"payload":{"type":"');
const ITEM_TYPE = Buffer.from('"item":{"type":"');
const PAYLOAD = Buffer.from(',"payload":{');

/**
 * What a line's head says for certain, or null when it does not have the envelope shape: the
 * envelope's `type` must come before its `payload` (else a `type` inside the payload could be
 * taken for it).
 */
export function readHead(head: Buffer): LineHead | null {
  const typeAt = find(head, TYPE_KEY);
  if (typeAt === -1) return null;
  if (find(head, PAYLOAD_KEY, 0, typeAt) !== -1) return null;
  // Only the envelope's own keys may come before `type`: a nested object before it would make the match ambiguous.
  if (head[0] !== OPEN_BRACE) return null;
  for (let i = 1; i < typeAt; i++) if (head[i] === OPEN_BRACE) return null;
  const type = plainStringAt(head, typeAt + TYPE_KEY.length);
  if (type === null) return null;
  let sub: string | null = null;
  let item: string | null = null;
  // Codex writes the payload right after the type: then its first key tells, and a payload whose
  // first key is not `type` has no sub-type to find (a search further on would find a nested object's).
  let q = typeAt + TYPE_KEY.length;
  while (head[q] !== QUOTE) q++;
  const at = (needle: Buffer): boolean => bytesAre(head, q + 1, Math.min(head.length, q + 1 + needle.length), needle);
  const subAt = at(PAYLOAD) ? (at(NEXT_PAYLOAD_TYPE) ? q + 2 : -1) : find(head, PAYLOAD_TYPE, q);
  if (subAt !== -1) {
    sub = plainStringAt(head, subAt + PAYLOAD_TYPE.length);
    // Only an item_completed line has an item to name; searching the rest of every other line's
    // head for one was most of the cost of classifying it.
    if (sub === "item_completed") {
      const itemAt = find(head, ITEM_TYPE, subAt);
      if (itemAt !== -1) item = plainStringAt(head, itemAt + ITEM_TYPE.length);
    }
  }
  return { type, sub, item };
}

/** `event_msg` kinds the activity parser uses. */
const ACTIVITY_EVENTS: ReadonlySet<string> = new Set(["task_started", "task_complete", "token_count"]);
/** `item_completed` items the activity parser uses: the first prompt's text, a command's exit code. */
const ACTIVITY_ITEMS: ReadonlySet<string> = new Set(["UserMessage", "CommandExecution"]);
/** `item_completed` items the transcript view uses. */
const MESSAGE_ITEMS: ReadonlySet<string> = new Set(["UserMessage", "CommandExecution"]);

/** Line types whose every line is used (small, one per file or per turn or per response). */
const ALWAYS: ReadonlySet<string> = new Set(["session_meta", "turn_context", "token_usage_record"]);

/** For readTranscript: keeps what line.ts turns into events. */
export function keepActivityLine(head: Buffer): boolean {
  return keepActivityHead(readHead(head));
}

/** keepActivityLine on a head already read. */
export function keepActivityHead(h: LineHead | null): boolean {
  if (h === null) return true;
  if (ALWAYS.has(h.type)) return true;
  if (h.type === "event_msg") {
    if (h.sub === null) return true;
    if (ACTIVITY_EVENTS.has(h.sub)) return true;
    if (h.sub === "item_completed") return h.item === null || ACTIVITY_ITEMS.has(h.item);
    return false;
  }
  if (h.type === "response_item") return h.sub === null || isToolCallType(h.sub) || isToolOutputType(h.sub);
  // world_state, compacted and line types this version does not know: nothing to count.
  return false;
}

/** For readMessages: also keeps the model's messages (prompts come from UserMessage items). */
export function keepMessageLine(head: Buffer): boolean {
  const h = readHead(head);
  if (h === null) return true;
  if (ALWAYS.has(h.type)) return true;
  if (h.type === "event_msg") {
    if (h.sub === null) return true;
    if (h.sub === "task_complete" || h.sub === "task_started") return true;
    if (h.sub === "item_completed") return h.item === null || MESSAGE_ITEMS.has(h.item);
    return false;
  }
  if (h.type === "response_item") return h.sub === null || h.sub === "message" || isToolCallType(h.sub) || isToolOutputType(h.sub);
  return false;
}
