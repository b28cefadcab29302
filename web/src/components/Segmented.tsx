// A row of mutually exclusive buttons (aria-pressed), e.g. the time range or the theme. Each
// option is a real button, so Tab, Enter and Space work without extra code.
import type { ComponentChildren, JSX } from "preact";

export interface SegmentOption<V extends string> {
  value: V;
  label: ComponentChildren;
  /** Accessible name when the label is an icon. */
  title?: string;
}

export function Segmented<V extends string>({ value, options, onChange, label, size = "md", testId }: { value: V; options: Array<SegmentOption<V>>; onChange: (v: V) => void; label: string; size?: "sm" | "md"; testId?: string }): JSX.Element {
  return (
    <div class={`segmented segmented-${size}`} role="group" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button
          type="button"
          key={o.value}
          class="segment"
          aria-pressed={o.value === value}
          title={o.title}
          // A text label is its own name (what you see is what a screen reader says); an icon needs one.
          aria-label={typeof o.label === "string" ? undefined : o.title}
          data-value={o.value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
