// The alerts view is loaded when it is first opened: its editors are most of its weight, and the
// page most people keep open never needs them. The chunk comes from the daemon like every asset.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/errors";
import { ErrorNotice, Loading } from "../components/States";

type View = () => JSX.Element;
let loaded: View | null = null;

export function AlertsRoute(): JSX.Element {
  const [view, setView] = useState<View | null>(() => loaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (view) return;
    let alive = true;
    import("./Alerts")
      .then((m) => {
        loaded = m.AlertsView;
        if (alive) setView(() => m.AlertsView);
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [attempt]);
  if (view) {
    const V = view;
    return <V />;
  }
  if (failed)
    return (
      <ErrorNotice
        error={new ApiError("network", null, null)}
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  return <Loading />;
}
