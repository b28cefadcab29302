// A tiny element builder: satori takes React-element-like `{type, props}` objects, so the card is
// built from plain objects and the project needs no JSX settings.

/** CSS in satori's camelCase form; numbers are px where CSS wants a length. */
type Style = Readonly<Record<string, string | number>>;

export interface El {
  type: string;
  props: { style?: Style; children?: Node[] | string } & Record<string, unknown>;
}

export type Node = El | string;
/** What a builder may return or list: falsy entries are dropped, arrays flattened. */
export type Child = Node | null | undefined | false | readonly Child[];

function flat(children: readonly Child[], out: Node[]): Node[] {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flat(c as readonly Child[], out);
    else out.push(c as Node);
  }
  return out;
}

/**
 * An element. Every `div` is a flex box (satori's layout is flex-first; being explicit keeps
 * row/column intent visible), a column unless the style says otherwise.
 */
export function h(type: string, style: Style, ...children: Child[]): El {
  const kids = flat(children, []);
  // border-box everywhere: widths below are the space a block takes, padding included.
  const base: Style = type === "div" ? { display: "flex", flexDirection: "column", boxSizing: "border-box" } : {};
  // A lone string stays a string so satori treats it as one run of text (ellipsis needs that).
  const only = kids.length === 1 ? kids[0] : undefined;
  return { type, props: { style: { ...base, ...style }, children: typeof only === "string" ? only : kids } };
}

export const box = (style: Style, ...children: Child[]): El => h("div", style, ...children);
export const row = (style: Style, ...children: Child[]): El => h("div", { flexDirection: "row", alignItems: "center", ...style }, ...children);

/** One line of text, cut with an ellipsis when it does not fit its box. */
export function line(text: string, style: Style = {}): El {
  return h("div", { display: "block", boxSizing: "border-box", overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis", minWidth: 0, ...style }, text);
}

/** Text that keeps its width (numbers, labels beside an ellipsized line). */
export function span(text: string, style: Style = {}): El {
  return h("div", { display: "flex", flexDirection: "row", flexShrink: 0, whiteSpace: "nowrap", ...style }, text);
}
