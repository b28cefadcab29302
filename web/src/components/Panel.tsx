import type { ComponentChildren, JSX } from "preact";

/** A titled surface; `actions` sit at the right of the title row. */
export function Panel({ title, actions, children, class: cls, id }: { title?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; class?: string; id?: string }): JSX.Element {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section class={`panel${cls ? ` ${cls}` : ""}`} id={id} aria-labelledby={title ? headingId : undefined}>
      {title || actions ? (
        <header class="panel-head">
          {title ? <h2 id={headingId}>{title}</h2> : <span />}
          {actions ? <div class="panel-actions">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}
