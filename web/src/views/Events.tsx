// Gateway events (errors, warnings, restarts): the last 24 hours as an hourly density strip with
// totals, then the list, filterable by type, by hour (click a column) and by text.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { fetchEvents } from "../api/queries";
import type { EventItem } from "../api/types";
import { Badge } from "../components/Badge";
import { DensityStrip } from "../components/DensityStrip";
import { Icon } from "../components/Icon";
import { Panel } from "../components/Panel";
import { SourceNotice } from "../components/SourceNotice";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, tn, type MessageKey } from "../i18n/i18n";
import { fmtClock, fmtDateTime, fmtFull, fmtInt } from "../lib/format";
import { eventTone } from "../lib/tones";
import { useLive } from "../lib/use-live";
import { href } from "../state/scope";
import { RequireSource } from "../components/RequireSource";
import type { DataSource } from "../api/types";
import { hasGateway } from "../lib/providers";

type EventType = "error" | "warning" | "restart";
const TYPES: EventType[] = ["error", "warning", "restart"];
const TYPE_LABEL: Record<EventType, MessageKey> = { error: "events.error", warning: "events.warning", restart: "events.restart" };
const TYPE_ONE: Record<EventType, MessageKey> = { error: "events.oneError", warning: "events.oneWarning", restart: "events.oneRestart" };

export function EventsView(): JSX.Element {
  return <RequireSource>{(src) => <Events src={src} />}</RequireSource>;
}

function Events({ src }: { src: DataSource }): JSX.Element {
  const id = src.id;
  const openclaw = src.attributes.provider ? hasGateway(src.attributes.provider) : false;
  const [hour, setHour] = useState<number | null>(null);
  const [types, setTypes] = useState<ReadonlySet<EventType>>(new Set(TYPES));
  const [query, setQuery] = useState("");
  const live = useLive((signal) => fetchEvents(id, { from: hour, to: hour === null ? null : hour + 3600 }, signal), [id, hour], { sources: [id] });
  const d = live.data;

  const totals = (d?.eventDensity ?? []).reduce((s, b) => ({ error: s.error + b.errorCount, warning: s.warning + b.warningCount, restart: s.restart + b.restartCount }), { error: 0, warning: 0, restart: 0 });
  const q = query.trim().toLowerCase();
  const visible = (d?.events ?? []).filter((e) => types.has(e.type as EventType) && (!q || e.message.toLowerCase().includes(q) || e.module.toLowerCase().includes(q)));

  const toggleType = (ty: EventType): void => {
    const next = new Set(types);
    if (next.has(ty)) next.delete(ty);
    else next.add(ty);
    setTypes(next);
  };

  return (
    <div class="view events">
      <ViewHeader title={t("nav.events")} sub={t(openclaw ? "events.sub" : "events.subCli")} />
      <SourceNotice />
      {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact={!!d} /> : null}
      {!d ? (
        live.error ? null : <Loading />
      ) : (
        <>
          <Panel
            id="density"
            title={t("events.last24h")}
            actions={
              <div class="totals" data-testid="event-totals">
                <Badge tone={totals.error ? "err" : "neutral"} dot>
                  {tn("count.errors", totals.error)}
                </Badge>
                <Badge tone={totals.warning ? "warn" : "neutral"} dot>
                  {tn("count.warnings", totals.warning)}
                </Badge>
                <Badge tone={totals.restart ? "info" : "neutral"} dot>
                  {tn("count.restarts", totals.restart)}
                </Badge>
              </div>
            }
          >
            <DensityStrip buckets={d.eventDensity} selected={hour} onSelect={setHour} />
            <p class="muted small density-foot">
              {t("events.allTime", { errors: fmtInt(d.eventCounts.error), warnings: fmtInt(d.eventCounts.warning), restarts: fmtInt(d.eventCounts.restart) })}
            </p>
          </Panel>
          <div class="toolbar">
            <label class="search">
              <Icon name="search" />
              <span class="sr-only">{t("events.search")}</span>
              <input type="search" placeholder={t("events.searchPlaceholder")} value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} data-testid="events-search" />
            </label>
            <div class="chips" role="group" aria-label={t("events.typeFilter")}>
              {TYPES.map((ty) => (
                <button type="button" key={ty} class={`chip-toggle tone-${eventTone(ty)}`} aria-pressed={types.has(ty)} onClick={() => toggleType(ty)} data-type={ty}>
                  <span class="dot" aria-hidden="true" />
                  {t(TYPE_LABEL[ty])}
                </button>
              ))}
            </div>
            {hour !== null ? (
              <button type="button" class="chip-toggle" aria-pressed="true" onClick={() => setHour(null)} data-testid="hour-filter">
                {fmtClock(hour * 1000, false)}–{fmtClock((hour + 3600) * 1000, false)}
                <Icon name="x" size={12} />
                <span class="sr-only">{t("events.clearHour")}</span>
              </button>
            ) : null}
          </div>
          {visible.length === 0 ? (
            <Empty title={d.events.length === 0 ? t("events.empty") : t("events.noMatch")} hint={d.events.length === 0 ? t("events.emptyHint") : undefined} />
          ) : (
            <Panel class="table-panel">
              <ul class="event-list" data-testid="event-list">
                {visible.map((e, i) => (
                  <EventRow key={`${e.ts}-${i}`} e={e} />
                ))}
              </ul>
              <p class="table-foot muted small">{tn("events.shown", d.events.length, { shown: fmtInt(visible.length) })}</p>
            </Panel>
          )}
        </>
      )}
    </div>
  );
}

function EventRow({ e }: { e: EventItem }): JSX.Element {
  const ty = e.type as EventType;
  return (
    <li class="event" data-type={e.type}>
      <time class="event-time num" dateTime={e.time} title={fmtFull(e.time)}>
        {fmtDateTime(e.time, true)}
      </time>
      <Badge tone={eventTone(e.type)}>{TYPE_ONE[ty] ? t(TYPE_ONE[ty]) : e.type}</Badge>
      <span class="event-module mono">{e.module}</span>
      <p class="event-msg">
        {e.message}
        {e.sessionKey ? (
          <>
            {" "}
            <a class="small" href={href({ name: "session", key: e.sessionKey })}>
              {e.sessionKey}
            </a>
          </>
        ) : null}
      </p>
    </li>
  );
}
