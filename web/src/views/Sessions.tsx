// Every session of the chosen source, or of every source ("All providers", with a provider
// column): sortable columns, a text filter, status and kind filters, the sub-agent tree
// (collapsible), the project (Claude Code, Codex), context-window bars and cost. A name opens the
// transcript.
import type { JSX } from "preact";
import { useMemo, useState } from "preact/hooks";
import { fetchAllSessions, fetchSessions } from "../api/queries";
import type { SourcedSession as Session, SessionStatus } from "../api/types";
import { Badge } from "../components/Badge";
import { Icon } from "../components/Icon";
import { Meter } from "../components/Meter";
import { Segmented } from "../components/Segmented";
import { SourceNotice } from "../components/SourceNotice";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, tn } from "../i18n/i18n";
import { fmtCompact, fmtFull, fmtInt, fmtRelative, fmtTokenCount, fmtUsd } from "../lib/format";
import { kindKey, STATUS_LABEL } from "../lib/labels";
import { Cost } from "../components/Cost";
import { sessionTone } from "../lib/tones";
import { useLive } from "../lib/use-live";
import { serverNow } from "../state/clock";
import { href, isAll, providerOf } from "../state/scope";
import { sources } from "../state/shell";
import { RequireSource } from "../components/RequireSource";
import { PROVIDER_KEY, PROVIDER_NAME, projectName } from "../lib/providers";
import { buildTree, sortTree, uidOf, visibleRows } from "./sessions/tree";

type SortKey = "name" | "status" | "model" | "project" | "tokens" | "context" | "cost" | "turns" | "activity";
type StatusFilter = "all" | SessionStatus;

const STATUS_ORDER: Record<SessionStatus, number> = { ACTIVE: 0, FAILED: 1, IDLE: 2, DONE: 3 };

function kindLabel(kind: string): string {
  const key = kindKey(kind);
  return key ? t(key) : kind;
}

const activity = (s: Session): number => Date.parse(s.lastActivityAt ?? s.updatedAt ?? "") || 0;

function comparator(key: SortKey, desc: boolean): (a: Session, b: Session) => number {
  const dir = desc ? -1 : 1;
  const pick: Record<SortKey, (s: Session) => number | string> = {
    name: (s) => s.displayName.toLowerCase(),
    status: (s) => STATUS_ORDER[s.status] ?? 9,
    model: (s) => (s.model ?? "").toLowerCase(),
    project: (s) => (s.project ?? "").toLowerCase(),
    tokens: (s) => s.totalTokens,
    context: (s) => s.usagePercent ?? -1,
    cost: (s) => s.costUsd,
    turns: (s) => s.turnCount,
    activity,
  };
  return (a, b) => {
    const x = pick[key](a);
    const y = pick[key](b);
    const c = typeof x === "string" && typeof y === "string" ? x.localeCompare(y) : (x as number) - (y as number);
    return c !== 0 ? c * dir : activity(b) - activity(a);
  };
}

export function SessionsView(): JSX.Element {
  if (isAll.value) return <SessionsList ids={sources.value.map((src) => src.id)} all />;
  return <RequireSource>{(src) => <SessionsList ids={[src.id]} all={false} />}</RequireSource>;
}

function SessionsList({ ids, all }: { ids: string[]; all: boolean }): JSX.Element {
  const key = ids.join(",");
  const live = useLive((signal) => (all ? fetchAllSessions(ids, signal) : fetchSessions(ids[0] as string, signal)), [key, all], { sources: ids });
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  const [kind, setKind] = useState("all");
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "activity", desc: true });
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const now = serverNow.value;

  const list = live.data ?? [];
  const tree = useMemo(() => sortTree(buildTree(list), comparator(sort.key, sort.desc)), [list, sort.key, sort.desc]);
  const q = query.trim().toLowerCase();
  const matches = (s: Session): boolean =>
    (status === "all" || s.status === status) &&
    (kind === "all" || s.kind === kind) &&
    (!q || [s.displayName, s.key, s.model ?? "", s.channel ?? "", s.project ?? "", s.gitBranch ?? ""].some((v) => v.toLowerCase().includes(q)));
  // Claude Code and Codex sessions ran in a working directory: a column for it when any has one.
  const hasProjects = list.some((s) => s.project);
  const providerOfSession = (s: Session) => {
    const src = sources.value.find((x) => x.id === s.source);
    return src ? providerOf(src) : null;
  };
  const rows = visibleRows(tree, matches, collapsed);
  // Tree guides only when there is a tree: a flat list keeps its names flush left.
  const isTree = rows.some((r) => r.hasChildren || r.depth > 0);
  const shown = list.filter(matches);
  const counts = (st: SessionStatus): number => list.filter((s) => s.status === st).length;
  const kinds = [...new Set(list.map((s) => s.kind))].sort();

  const header = (key: SortKey, label: string, cls = ""): JSX.Element => {
    const active = sort.key === key;
    return (
      <th scope="col" class={cls} aria-sort={active ? (sort.desc ? "descending" : "ascending") : "none"}>
        <button type="button" class="th-sort" onClick={() => setSort(active ? { key, desc: !sort.desc } : { key, desc: key !== "name" && key !== "model" })}>
          {label}
          <span class={`sort-mark${active ? " on" : ""}`} aria-hidden="true">
            {active ? (sort.desc ? "▼" : "▲") : "↕"}
          </span>
        </button>
      </th>
    );
  };

  const toggle = (uid: string): void => {
    const next = new Set(collapsed);
    if (next.has(uid)) next.delete(uid);
    else next.add(uid);
    setCollapsed(next);
  };

  return (
    <div class="view sessions">
      {/* Both counts, so this view and the overview's lifetime transcripts are not read as one figure. */}
      <ViewHeader title={all ? t("sessions.allTitle") : t("nav.sessions")} sub={live.data ? `${tn("count.sessions", list.length)} · ${tn("count.transcripts", list.reduce((n, s) => n + s.windows, 0))}` : undefined} />
      <SourceNotice />
      <div class="toolbar">
        <label class="search">
          <Icon name="search" />
          <span class="sr-only">{t("sessions.filter")}</span>
          <input type="search" placeholder={t("sessions.filterPlaceholder")} value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} data-testid="sessions-filter" />
        </label>
        <Segmented<StatusFilter>
          size="sm"
          label={t("sessions.statusFilter")}
          value={status}
          onChange={setStatus}
          options={[
            { value: "all", label: t("status.all") },
            ...(["ACTIVE", "IDLE", "DONE", "FAILED"] as const).map((st) => ({
              value: st,
              label: (
                <>
                  {t(STATUS_LABEL[st])} <span class="count">{counts(st)}</span>
                </>
              ),
            })),
          ]}
        />
        <label class="select show-sm">
          <span class="select-label">{t("sessions.sortBy")}</span>
          <select
            value={`${sort.key}:${sort.desc ? "desc" : "asc"}`}
            onChange={(e) => {
              const [key, dir] = (e.currentTarget as HTMLSelectElement).value.split(":");
              setSort({ key: key as SortKey, desc: dir === "desc" });
            }}
          >
            <option value="activity:desc">{t("sessions.activity")}</option>
            <option value="tokens:desc">{t("sessions.tokens")}</option>
            <option value="cost:desc">{t("sessions.cost")}</option>
            <option value="context:desc">{t("sessions.context")}</option>
            <option value="name:asc">{t("sessions.session")}</option>
            {hasProjects ? <option value="project:asc">{t("sessions.project")}</option> : null}
            <option value="status:asc">{t("sessions.status")}</option>
          </select>
        </label>
        <label class="select">
          <span class="sr-only">{t("sessions.kindFilter")}</span>
          <select value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value)}>
            <option value="all">{t("kind.all")}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact={!!live.data} /> : null}
      {!live.data ? (
        live.error ? null : <Loading />
      ) : list.length === 0 ? (
        <Empty title={t("sessions.empty")} hint={t("sessions.emptyHint")} />
      ) : rows.length === 0 ? (
        <Empty title={t("sessions.noMatch")}>
          <button
            type="button"
            class="btn"
            onClick={() => {
              setQuery("");
              setStatus("all");
              setKind("all");
            }}
          >
            {t("action.clearFilters")}
          </button>
        </Empty>
      ) : (
        <div class="panel table-panel">
          <div class="table-scroll">
            <table class="table sessions-table" data-testid="sessions-table">
              <caption class="sr-only">{t("nav.sessions")}</caption>
              <thead>
                <tr>
                  {header("name", t("sessions.session"), "col-name")}
                  {header("status", t("sessions.status"))}
                  {hasProjects ? header("project", t("sessions.project"), "hide-md") : null}
                  {header("model", t("sessions.model"), "hide-md")}
                  {header("tokens", t("sessions.tokens"), "num")}
                  {header("context", t("sessions.context"), "col-context")}
                  {header("cost", t("sessions.cost"), "num")}
                  {header("turns", t("sessions.turns"), `num hide-md${hasProjects ? " hide-lg" : ""}`)}
                  {header("activity", t("sessions.activity"), "hide-sm")}
                </tr>
              </thead>
              <tbody>
                {rows.map(({ session: s, depth, hasChildren, contextOnly }) => {
                  const uid = uidOf(s);
                  const provider = providerOfSession(s);
                  return (
                  <tr key={uid} class={contextOnly ? "context-row" : undefined} data-key={s.key} data-source={s.source} data-depth={depth}>
                    <td class="col-name">
                      <div class="tree-cell" style={{ paddingLeft: `${depth * 20}px` }}>
                        {hasChildren ? (
                          <button type="button" class="tree-toggle" aria-expanded={!collapsed.has(uid)} aria-label={t(collapsed.has(uid) ? "sessions.expand" : "sessions.collapse", { name: s.displayName })} onClick={() => toggle(uid)}>
                            <Icon name={collapsed.has(uid) ? "chevron" : "chevronDown"} size={14} />
                          </button>
                        ) : depth > 0 ? (
                          <span class="tree-branch" aria-hidden="true" />
                        ) : isTree ? (
                          <span class="tree-spacer" aria-hidden="true" />
                        ) : null}
                        <div class="name-block">
                          <a href={href({ name: "session", key: s.key }, s.source)} class="session-link">
                            {s.displayName}
                          </a>
                          <span class="session-sub">
                            {all && provider ? (
                              <span class="prov-tag" data-testid="session-provider">
                                <span class={`prov-dot ${PROVIDER_KEY[provider]}`} aria-hidden="true" />
                                {PROVIDER_NAME[provider]}
                              </span>
                            ) : null}
                            <span class="session-key mono" title={s.key}>
                              {s.key}
                            </span>
                          </span>
                        </div>
                        {s.kind !== "direct" ? <Badge tone={s.kind === "subagent" ? "accent" : "neutral"}>{kindLabel(s.kind)}</Badge> : null}
                      </div>
                    </td>
                    <td class="col-status">
                      <Badge tone={sessionTone(s.status)} dot>
                        {t(STATUS_LABEL[s.status])}
                      </Badge>
                    </td>
                    {hasProjects ? (
                      <td class="hide-md col-project" title={s.project ?? undefined}>
                        {s.project ? (
                          <>
                            <span class="project-name">{projectName(s.project)}</span>
                            {s.gitBranch ? <span class="branch mono">{s.gitBranch}</span> : null}
                          </>
                        ) : (
                          <span class="muted">—</span>
                        )}
                      </td>
                    ) : null}
                    <td class="hide-md mono small col-model" title={s.model ?? undefined}>
                      {s.model ?? "—"}
                    </td>
                    <td class="num col-tokens" data-label={t("sessions.tokens")} title={fmtInt(s.totalTokens)}>
                      {fmtCompact(s.totalTokens)}
                    </td>
                    <td class="col-context" data-label={t("sessions.context")}>
                      <Meter percent={s.usagePercent} label={t("sessions.contextOf", { name: s.displayName })} />
                    </td>
                    <td class="num col-cost" data-label={t("sessions.cost")}>
                      <Cost usd={s.costUsd} unpriced={s.unpricedResponses} />
                    </td>
                    <td class={`num hide-md${hasProjects ? " hide-lg" : ""}`}>{fmtInt(s.turnCount)}</td>
                    <td class="hide-sm nowrap" title={s.lastActivityAt ? fmtFull(s.lastActivityAt) : undefined}>
                      {fmtRelative(s.lastActivityAt ?? s.updatedAt, now)}
                    </td>
                  </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p class="table-foot muted small">
            {t("sessions.summary", {
              shown: fmtInt(shown.length),
              total: fmtInt(list.length),
              tokens: fmtTokenCount(shown.reduce((n, s) => n + s.totalTokens, 0)),
              cost: fmtUsd(shown.reduce((n, s) => n + s.costUsd, 0)),
            })}
          </p>
        </div>
      )}
    </div>
  );
}
