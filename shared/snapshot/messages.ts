// Every word the status card prints, in both languages. The layout and the formatters take their
// labels, units and patterns from here only, so a test can walk this catalog and prove that the
// bundled fonts have a glyph for every character the card can print in its own words.
//
// `{name}` marks a value filled in by `t()`. A key ending in `.one` / `.other` is a counted phrase
// for `tn()`, which picks the form by the language's plural rule ("1 turn", "2 turns"). Keep zh
// strings free of characters the fonts lack: `fonts.test.ts` fails on any such character.
//
// Terms: the same words as the dashboard and the daemon's messages; shared/i18n/catalog.ts says
// why a usage token is "Token" in Chinese (and 令牌 is kept for the API credential).

export type Lang = "en" | "zh";

const en = {
  "card.title": "Agent status",
  "card.generated": "Generated {time}",
  "card.continued": "{provider} (continued)",
  "card.page": "Page {page} of {pages}",
  "card.unavailable": "Unavailable: this source failed",

  // The pill: the daemon's one verdict over every provider (GET /health).
  "verdict.OK": "Healthy",
  "verdict.DEGRADED": "Degraded",
  "verdict.UNHEALTHY": "Unhealthy",
  "verdict.STARTING": "Starting",
  "verdict.unknown": "Unknown",

  // OpenClaw's gateway as system.gateway.state says: never "Stopped" in demo mode.
  "gateway.UP": "Running",
  "gateway.DOWN": "Stopped",
  "gateway.DEMO": "Demo",
  "gateway.UNKNOWN": "Unknown",

  "provider.openclaw": "OpenClaw",
  "provider.claude-code": "Claude Code",
  "provider.codex": "Codex",
  "provider.gemini-cli": "Gemini CLI",
  "all.title": "All providers",

  "header.uptime": "up {duration}",
  "header.notRunning": "not running",
  "header.range": "last {range}",
  "header.version": "version {version}",
  "header.versionUnknown": "version unknown",
  "header.insights": "gateway-insights {version}",
  "header.update": "update {version} available",

  "cli.version": "CLI {version}",
  "cli.versionUnknown": "CLI version unknown",
  "cli.unavailable": "CLI state unavailable",
  "cli.live.one": "{n} session running",
  "cli.live.other": "{n} sessions running",

  "banner.demo": "Demo data: no OpenClaw, Claude Code or Codex data found",
  "banner.degraded": "Missing data from: {sources}",

  "kpi.tokens": "Tokens",
  "kpi.cost": "Cost",
  "kpi.turns": "Turns",
  "kpi.errorsWarnings": "Errors / warnings",
  "kpi.uptime": "Uptime",
  "kpi.activeSessions": "Active sessions",
  "summary.idle": "No activity in the last {range}; last activity {ago}",
  "kpi.ofTotal": "of {total}",
  "kpi.sessions": "Sessions",
  "kpi.liveNow": "Running now",

  "cost.unpriced": "unpriced",
  "cost.unpricedNote.one": "+{n} unpriced",
  "cost.unpricedNote.other": "+{n} unpriced",

  "rate.title": "Rate limits",
  "rate.plan": "plan {plan}",
  // The dashboard's words (web/src/i18n quota.*), picked by shared/i18n/window-words.ts.
  "rate.weekly": "Weekly window",
  "rate.windowDays": "{n}-day window",
  "rate.windowHours": "{n}-hour window",
  "rate.windowMinutes": "{n}-minute window",
  "rate.primary": "Primary window",
  "rate.secondary": "Secondary window",
  "rate.resets": "resets {time}",
  "rate.asOf": "as of {time}",
  "rate.projected": "full ≈{full}, resets {reset}",
  "rate.stale": "as of {time}; the window has reset since",
  "rate.none": "No rate limits recorded yet",

  "chart.title": "Tokens, last {range}",
  "chart.peak": "peak {value}",
  "chart.now": "now",
  "chart.empty": "No token usage in this range",
  "chart.errorMark": "errors",

  "sessions.title": "Top sessions",
  "sessions.count": "{shown} of {total}",
  "sessions.empty": "No sessions",
  "sessions.turns.one": "{n} turn",
  "sessions.turns.other": "{n} turns",
  "sessions.subAgents.one": "{n} sub-agent",
  "sessions.subAgents.other": "{n} sub-agents",
  "sessions.noModel": "no model",

  "status.ACTIVE": "active",
  "status.IDLE": "idle",
  "status.DONE": "done",
  "status.FAILED": "failed",

  "kind.direct": "direct",
  "kind.group": "group",
  "kind.cron": "cron",
  "kind.subagent": "sub-agent",

  "errors.title": "Recent errors",
  "errors.empty": "No errors in this range",

  "subagents.title": "Sub-agents",
  "subagents.empty": "No sub-agents",

  "events.title": "Event log",
  "events.empty": "No events in this range",
  "event.error": "error",
  "event.warning": "warn",
  "event.restart": "restart",

  "cron.title": "Cron jobs",
  "cron.empty": "No cron jobs",
  "cron.disabled": "disabled",
  "cron.never": "never run",
  "cron.last": "last {time}",
  "cron.next": "next {time}",
  "cron.noNext": "not scheduled",
  "cron.overdue": "overdue {duration}",
  "cron.errorsInRow.one": "{n} failure in a row",
  "cron.errorsInRow.other": "{n} failures in a row",
  "cron.status.ok": "ok",
  "cron.status.error": "failed",
  "cron.status.skipped": "skipped",
  "cron.status.running": "running",
  "cron.status.other": "{status}",

  "channels.title": "Channels",
  "channels.empty": "No channels configured",
  "channels.connected": "connected",
  "channels.disconnected": "disconnected",

  "health.title": "Health checks",
  "health.empty": "No health checks",
  "check.PASS": "pass",
  "check.WARN": "warn",
  "check.FAIL": "fail",
  // The checks' names (the API's `name`); a name not listed here is printed as the API gives it.
  "checkName.gateway": "Gateway",
  "checkName.ready": "Readiness",
  "checkName.event-loop": "Event loop",
  "checkName.channels": "Channels",
  "checkName.sources": "Data sources",
  "checkName.disk": "Disk",
  "checkName.store": "Store",
  "checkName.pricing": "Pricing",
  "checkName.rate-limit": "Rate limit",
  "checkName.detection": "Change detection",

  "system.title": "System",
  "system.cpu": "CPU",
  "system.memory": "Memory",
  // Space the OpenClaw state dir takes (not the free space of the disk).
  "system.disk": "State dir",
  "system.pid": "PID",

  "sources.title": "Sources",
  "sources.empty": "No sources",
  "source.INITIALIZING": "starting",
  "source.CONNECTED": "connected",
  "source.DISCONNECTED": "disconnected",
  "source.ERROR": "error",

  "totals.title": "All time",
  "totals.tokens": "Tokens",
  "totals.cost": "Cost",
  "totals.today": "Cost today",
  "totals.sessions": "Transcripts",
  "totals.since": "since {date}",

  // The alerts firing now (docs/alerting.md): a block under the header on every detail level.
  "alerts.title": "Alerts",
  "alerts.firing.one": "{n} firing",
  "alerts.firing.other": "{n} firing",
  "alerts.critical": "critical",
  "alerts.warning": "warning",
  "alerts.valueOf": "{value} / {threshold}",
  "alerts.since": "since {time}",
  "alerts.muted": "muted until {time}",
  "alerts.reaches": "at this pace {target} is reached at {time}",
  "alerts.pace.day": "at this pace {total} by the end of the day",
  "alerts.pace.week": "at this pace {total} by the end of the week",
  "alerts.pace.month": "at this pace {total} by the end of the month",
  "alerts.tokens": "{n} tokens",
  // The built-in rules' names, while unchanged (a name set in config.json or the dashboard is printed as written).
  "alerts.rule.gateway-down": "OpenClaw gateway down",
  "alerts.rule.health-check-failing": "A health check is failing",
  "alerts.rule.rate-limit": "Rate-limit window almost used",
  "alerts.rule.rate-limit-projection": "Rate-limit projected full before reset",
  "alerts.rule.daily-cost": "Daily cost budget",

  "list.more": "+{n} more",
  "value.none": "—",

  // Number and time formatting (format.ts; counts and money: shared/i18n/numbers.ts; sizes and milliseconds: shared/i18n/units.ts).
  "unit.percent": "{n}%",
  "duration.days": "{n}d",
  "duration.hours": "{n}h",
  "duration.minutes": "{n}m",
  "duration.seconds": "{n}s",
  "duration.join": " ",
  "range.minutes": "{n}m",
  "range.hours": "{n}h",
  "time.ago": "{duration} ago",
  "time.in": "in {duration}",
  "time.justNow": "just now",
  "date.pattern": "{month} {day}, {time}",
  "date.short": "{month} {day}",
  "month.1": "Jan",
  "month.2": "Feb",
  "month.3": "Mar",
  "month.4": "Apr",
  "month.5": "May",
  "month.6": "Jun",
  "month.7": "Jul",
  "month.8": "Aug",
  "month.9": "Sep",
  "month.10": "Oct",
  "month.11": "Nov",
  "month.12": "Dec",
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Readonly<Record<MessageKey, string>>;

// Chinese groups large numbers by 万 (10^4) and 亿 (10^8) rather than by thousands, so zh leaves
// the thousand/million/billion units empty and format.ts picks the grouping from the catalog.
const zh: Messages = {
  "card.title": "智能体状态",
  "card.generated": "生成于 {time}",
  "card.continued": "{provider}（续）",
  "card.page": "第 {page} 页，共 {pages} 页",
  "card.unavailable": "不可用：此数据源读取失败",

  "verdict.OK": "健康",
  "verdict.DEGRADED": "降级",
  "verdict.UNHEALTHY": "异常",
  "verdict.STARTING": "启动中",
  "verdict.unknown": "未知",

  "gateway.UP": "运行中",
  "gateway.DOWN": "已停止",
  "gateway.DEMO": "演示",
  "gateway.UNKNOWN": "未知",

  "provider.openclaw": "OpenClaw",
  "provider.claude-code": "Claude Code",
  "provider.codex": "Codex",
  "provider.gemini-cli": "Gemini CLI",
  "all.title": "全部提供方",

  "header.uptime": "已运行 {duration}",
  "header.notRunning": "未运行",
  "header.range": "最近 {range}",
  "header.version": "版本 {version}",
  "header.versionUnknown": "版本未知",
  "header.insights": "gateway-insights {version}",
  "header.update": "可更新至 {version}",

  "cli.version": "CLI {version}",
  "cli.versionUnknown": "CLI 版本未知",
  "cli.unavailable": "CLI 状态不可用",
  "cli.live.one": "{n} 个会话运行中",
  "cli.live.other": "{n} 个会话运行中",

  "banner.demo": "演示数据：未找到 OpenClaw、Claude Code 或 Codex 的数据",
  "banner.degraded": "以下数据源缺失：{sources}",

  "kpi.tokens": "Token",
  "kpi.cost": "费用",
  "kpi.turns": "轮次",
  "kpi.errorsWarnings": "错误 / 警告",
  "kpi.uptime": "可用率",
  "kpi.activeSessions": "活跃会话",
  "summary.idle": "最近 {range}内无活动；上次活动：{ago}",
  "kpi.ofTotal": "共 {total}",
  "kpi.sessions": "会话",
  "kpi.liveNow": "正在运行",

  "cost.unpriced": "未定价",
  "cost.unpricedNote.one": "另有 {n} 条未定价",
  "cost.unpricedNote.other": "另有 {n} 条未定价",

  "rate.title": "速率限制",
  "rate.plan": "套餐 {plan}",
  "rate.weekly": "每周窗口",
  "rate.windowDays": "{n} 天窗口",
  "rate.windowHours": "{n} 小时窗口",
  "rate.windowMinutes": "{n} 分钟窗口",
  "rate.primary": "主窗口",
  "rate.secondary": "次窗口",
  "rate.resets": "{time}重置",
  "rate.asOf": "记录于{time}",
  "rate.projected": "预计 {full} 用尽，{reset} 重置",
  "rate.stale": "记录于{time}，窗口已重置",
  "rate.none": "尚未记录速率限制",

  "chart.title": "Token 用量 · 最近 {range}",
  "chart.peak": "峰值 {value}",
  "chart.now": "现在",
  "chart.empty": "此时间段内没有 Token 用量",
  "chart.errorMark": "错误",

  "sessions.title": "用量最高的会话",
  "sessions.count": "{shown} / 共 {total}",
  "sessions.empty": "暂无会话",
  "sessions.turns.one": "{n} 轮",
  "sessions.turns.other": "{n} 轮",
  "sessions.subAgents.one": "{n} 个子智能体",
  "sessions.subAgents.other": "{n} 个子智能体",
  "sessions.noModel": "无模型",

  "status.ACTIVE": "活跃",
  "status.IDLE": "空闲",
  "status.DONE": "已结束",
  "status.FAILED": "失败",

  "kind.direct": "私聊",
  "kind.group": "群组",
  "kind.cron": "定时",
  "kind.subagent": "子智能体",

  "errors.title": "最近错误",
  "errors.empty": "此时间段内没有错误",

  "subagents.title": "子智能体",
  "subagents.empty": "暂无子智能体",

  "events.title": "事件日志",
  "events.empty": "此时间段内没有事件",
  "event.error": "错误",
  "event.warning": "警告",
  "event.restart": "重启",

  "cron.title": "定时任务",
  "cron.empty": "暂无定时任务",
  "cron.disabled": "已停用",
  "cron.never": "从未运行",
  "cron.last": "上次 {time}",
  "cron.next": "下次 {time}",
  "cron.noNext": "未排期",
  "cron.overdue": "已逾期 {duration}",
  "cron.errorsInRow.one": "连续失败 {n} 次",
  "cron.errorsInRow.other": "连续失败 {n} 次",
  "cron.status.ok": "成功",
  "cron.status.error": "失败",
  "cron.status.skipped": "跳过",
  "cron.status.running": "运行中",
  "cron.status.other": "{status}",

  "channels.title": "渠道",
  "channels.empty": "未配置渠道",
  "channels.connected": "已连接",
  "channels.disconnected": "已断开",

  "health.title": "健康检查",
  "health.empty": "暂无健康检查",
  "check.PASS": "通过",
  "check.WARN": "警告",
  "check.FAIL": "失败",
  "checkName.gateway": "网关",
  "checkName.ready": "就绪状态",
  "checkName.event-loop": "事件循环",
  "checkName.channels": "渠道",
  "checkName.sources": "数据源",
  "checkName.disk": "磁盘",
  "checkName.store": "存储",
  "checkName.pricing": "定价",
  "checkName.rate-limit": "速率限制",
  "checkName.detection": "变更检测",

  "system.title": "系统",
  "system.cpu": "CPU",
  "system.memory": "内存",
  "system.disk": "状态目录",
  "system.pid": "PID",

  "sources.title": "数据源",
  "sources.empty": "暂无数据源",
  "source.INITIALIZING": "初始化中",
  "source.CONNECTED": "已连接",
  "source.DISCONNECTED": "已断开",
  "source.ERROR": "错误",

  "totals.title": "累计",
  "totals.tokens": "Token",
  "totals.cost": "费用",
  "totals.today": "今日费用",
  "totals.sessions": "对话记录",
  "totals.since": "自 {date} 起",

  "alerts.title": "告警",
  "alerts.firing.one": "{n} 条触发中",
  "alerts.firing.other": "{n} 条触发中",
  "alerts.critical": "严重",
  "alerts.warning": "警告",
  "alerts.valueOf": "{value} / {threshold}",
  "alerts.since": "自 {time} 起",
  "alerts.muted": "静音至 {time}",
  "alerts.reaches": "按此速度将于 {time} 达到 {target}",
  "alerts.pace.day": "按此速度今天结束时达到 {total}",
  "alerts.pace.week": "按此速度本周结束时达到 {total}",
  "alerts.pace.month": "按此速度本月结束时达到 {total}",
  "alerts.tokens": "{n} Token",
  "alerts.rule.gateway-down": "OpenClaw 网关已停止",
  "alerts.rule.health-check-failing": "有健康检查失败",
  "alerts.rule.rate-limit": "速率限制窗口即将用尽",
  "alerts.rule.rate-limit-projection": "速率限制窗口预计在重置前用尽",
  "alerts.rule.daily-cost": "每日费用预算",

  "list.more": "另有 {n} 项",
  "value.none": "—",

  "unit.percent": "{n}%",
  "duration.days": "{n}天",
  "duration.hours": "{n}小时",
  "duration.minutes": "{n}分钟",
  "duration.seconds": "{n}秒",
  "duration.join": "",
  "range.minutes": "{n} 分钟",
  "range.hours": "{n} 小时",
  "time.ago": "{duration}前",
  "time.in": "{duration}后",
  "time.justNow": "刚刚",
  "date.pattern": "{month}{day}日 {time}",
  "date.short": "{month}{day}日",
  "month.1": "1月",
  "month.2": "2月",
  "month.3": "3月",
  "month.4": "4月",
  "month.5": "5月",
  "month.6": "6月",
  "month.7": "7月",
  "month.8": "8月",
  "month.9": "9月",
  "month.10": "10月",
  "month.11": "11月",
  "month.12": "12月",
};

export const CATALOG: Readonly<Record<Lang, Messages>> = { en, zh };

export const LANGS: readonly Lang[] = ["en", "zh"];

type PluralBase<K> = K extends `${infer B}.one` ? B : never;
/** The counted phrases: `key.one` and `key.other` exist for each. */
export type PluralKey = PluralBase<MessageKey>;

const PLURAL_RULES: Readonly<Record<Lang, Intl.PluralRules>> = { en: new Intl.PluralRules("en-US"), zh: new Intl.PluralRules("zh-CN") };
const countFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** The counted phrase `key` for `n` in `lang`: "1 turn", "2 turns", "3 轮"; `{n}` is `n` grouped. */
export function tn(lang: Lang, key: PluralKey, n: number, vars?: Readonly<Record<string, string | number>>): string {
  const form = PLURAL_RULES[lang].select(n) === "one" ? "one" : "other";
  return t(lang, `${key}.${form}`, { n: countFormat.format(n), ...vars });
}

/** The message `key` in `lang` with its `{name}` placeholders filled from `vars`. */
export function t(lang: Lang, key: MessageKey, vars?: Readonly<Record<string, string | number>>): string {
  const template = CATALOG[lang][key];
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
