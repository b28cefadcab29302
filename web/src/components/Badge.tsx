import type { ComponentChildren, JSX } from "preact";
import type { Tone } from "../lib/tones";

/** A small status label; `dot` adds a coloured dot before the text. */
export function Badge({ tone = "neutral", dot, children, title }: { tone?: Tone; dot?: boolean; children: ComponentChildren; title?: string }): JSX.Element {
  return (
    <span class={`badge tone-${tone}`} title={title}>
      {dot ? <span class="dot" aria-hidden="true" /> : null}
      {children}
    </span>
  );
}
