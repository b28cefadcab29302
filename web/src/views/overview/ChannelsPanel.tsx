// The gateway's messaging channels (Telegram, Slack, …) and whether each is connected.
import type { JSX } from "preact";
import type { Channel } from "../../api/types";
import { Badge } from "../../components/Badge";
import { Panel } from "../../components/Panel";
import { Empty } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtMs } from "../../lib/format";

export function ChannelsPanel({ channels }: { channels: Channel[] }): JSX.Element {
  const up = channels.filter((c) => c.connected).length;
  return (
    <Panel id="channels" title={t("channels.title")} actions={channels.length ? <span class="muted num">{t("channels.connectedOf", { up, total: channels.length })}</span> : null}>
      {channels.length === 0 ? (
        <Empty title={t("channels.empty")} hint={t("channels.emptyHint")} />
      ) : (
        <ul class="rows" data-testid="channels">
          {channels.map((c) => (
            <li key={`${c.provider}:${c.name}`} class="row">
              <div class="row-main">
                <span class="row-title">{c.name}</span>
                <span class="row-sub">{c.provider}</span>
                {c.lastError ? <span class="row-sub tone-text-err">{c.lastError}</span> : null}
              </div>
              <span class="num muted">{c.latencyMs !== null ? fmtMs(c.latencyMs) : ""}</span>
              <Badge tone={c.connected ? "ok" : "err"} dot>
                {c.connected ? t("channels.connected") : t("channels.disconnected")}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
