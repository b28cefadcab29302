import type { ComponentChildren, JSX } from "preact";

/** The view's title row: the page's one h1, a subtitle and controls on the right. */
export function ViewHeader({ title, sub, children }: { title: ComponentChildren; sub?: ComponentChildren; children?: ComponentChildren }): JSX.Element {
  return (
    <div class="view-head">
      <div class="view-titles">
        <h1>{title}</h1>
        {sub ? <p class="view-sub">{sub}</p> : null}
      </div>
      {children ? <div class="view-tools">{children}</div> : null}
    </div>
  );
}
