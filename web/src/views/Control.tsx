// Gateway control: restart and update, each behind a confirmation, with the command's output.
// The daemon runs one operation at a time and audits who asked; this page adds the "are you sure".
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { GatewayOperation } from "../api/queries";
import { Badge } from "../components/Badge";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { Icon } from "../components/Icon";
import { Panel } from "../components/Panel";
import { Callout, ErrorNotice } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t } from "../i18n/i18n";
import { fmtDuration, fmtClock } from "../lib/format";
import { GATEWAY_LABEL } from "../lib/labels";
import { gatewayTone } from "../lib/tones";
import { operation, startOperation } from "../state/operations";
import { openclaw } from "../state/shell";
import { RequireSource } from "../components/RequireSource";

const COMMAND: Record<GatewayOperation, string> = { restart: "openclaw gateway restart", update: "openclaw update --yes" };

export function ControlView(): JSX.Element {
  return <RequireSource openclaw>{() => <Control />}</RequireSource>;
}

function Control(): JSX.Element {
  const s = openclaw.value;
  const [confirm, setConfirm] = useState<GatewayOperation | null>(null);
  const op = operation.value;
  const running = op.status === "running";
  const demo = s?.demo ?? false;
  const gw = s?.gateway;

  return (
    <div class="view control">
      <ViewHeader title={t("nav.control")} sub={t("control.sub")} />
      {demo ? <Callout tone="info" title={t("control.demo")} /> : null}
      <div class="grid grid-2">
        <ActionCard
          op="restart"
          title={t("control.restartTitle")}
          body={t("control.restartBody")}
          button={t("control.restartButton")}
          disabled={running || demo}
          onClick={() => setConfirm("restart")}
          extra={
            gw ? (
              <span data-testid="control-gateway-state" data-state={gw.state}>
                <Badge tone={gatewayTone(gw.state)} dot>
                  {t(GATEWAY_LABEL[gw.state])}
                </Badge>
              </span>
            ) : null
          }
        />
        <ActionCard
          op="update"
          title={t("control.updateTitle")}
          body={t("control.updateBody")}
          button={t("control.updateButton")}
          disabled={running || demo}
          onClick={() => setConfirm("update")}
          extra={
            gw?.updateAvailable ? (
              <Badge tone="accent">{t("gateway.updateTo", { version: gw.latestVersion ?? "?" })}</Badge>
            ) : gw?.version ? (
              <Badge>{`v${gw.version}`}</Badge>
            ) : null
          }
        />
      </div>
      <OperationPanel />
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === "update" ? t("control.confirmUpdateTitle") : t("control.confirmRestartTitle")}
        confirmLabel={confirm === "update" ? t("control.confirmUpdate") : t("control.confirmRestart")}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const which = confirm;
          setConfirm(null);
          if (which) void startOperation(which);
        }}
      >
        <p>{confirm === "update" ? t("control.confirmUpdateBody") : t("control.confirmRestartBody")}</p>
        {confirm ? <code class="cmd">{COMMAND[confirm]}</code> : null}
      </ConfirmDialog>
    </div>
  );
}

function ActionCard(p: { op: GatewayOperation; title: string; body: string; button: string; disabled: boolean; onClick: () => void; extra: JSX.Element | null }): JSX.Element {
  return (
    <Panel title={p.title} actions={p.extra}>
      <p class="action-body">{p.body}</p>
      <code class="cmd">{COMMAND[p.op]}</code>
      <div class="action-row">
        <button type="button" class={`btn ${p.op === "restart" ? "btn-danger" : "btn-primary"}`} disabled={p.disabled} onClick={p.onClick} data-testid={`${p.op}-button`}>
          <Icon name={p.op === "restart" ? "restart" : "update"} />
          {p.button}
        </button>
      </div>
    </Panel>
  );
}

function Elapsed({ since }: { since: number }): JSX.Element {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return <span class="num">{fmtDuration(Math.max(0, now - since))}</span>;
}

function OperationPanel(): JSX.Element | null {
  const op = operation.value;
  if (op.status === "idle") return null;
  const label = op.op === "restart" ? t("control.restartTitle") : t("control.updateTitle");
  if (op.status === "running") {
    return (
      <Panel title={label} actions={<Badge tone="info">{t("control.running")}</Badge>}>
        <p class="op-running" role="status" data-testid="operation-running">
          <span class="spinner" aria-hidden="true" />
          <span>
            {t("control.runningBody", { command: COMMAND[op.op] })} <Elapsed since={op.startedAt} />
          </span>
        </p>
      </Panel>
    );
  }
  if (op.status === "failed") {
    return (
      <Panel title={label} actions={<Badge tone="err">{t("control.failed")}</Badge>}>
        <ErrorNotice error={op.error} />
      </Panel>
    );
  }
  const r = op.result;
  return (
    <Panel
      title={label}
      actions={
        <Badge tone={r.ok ? "ok" : "err"} dot>
          {r.ok ? t("control.succeeded") : t("control.failed")}
        </Badge>
      }
    >
      <div class="op-result" data-testid="operation-result" data-ok={String(r.ok)} role="status">
        <p>
          <strong>{r.message}</strong>
        </p>
        <p class="muted small">{t("control.finished", { time: fmtClock(op.finishedAt), duration: fmtDuration(r.durationMs) })}</p>
        <h3 class="output-title">{t("control.output")}</h3>
        {r.output ? (
          <pre class="output" tabIndex={0} data-testid="operation-output">
            {r.output}
          </pre>
        ) : (
          <p class="muted">{t("control.noOutput")}</p>
        )}
      </div>
    </Panel>
  );
}
