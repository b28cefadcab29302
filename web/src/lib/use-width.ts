// The rendered width of an element, kept current with a ResizeObserver, so SVG charts can be
// drawn at their real pixel size (crisp 1 px lines, text that is not stretched).
import { useEffect, useRef, useState } from "preact/hooks";
import type { RefObject } from "preact";

export function useWidth<T extends HTMLElement>(fallback = 600): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (): void => setWidth(Math.max(120, Math.floor(el.getBoundingClientRect().width)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}
