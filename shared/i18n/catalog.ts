// Every sentence the daemon itself writes for people (today: the health checks' messages), in
// both languages. Provider-neutral: a Claude Code or Codex system's checks add their keys here.
// Code never writes such a sentence inline; it builds a Message (an id and its parameters, see
// message.ts) and each interface renders it in the reader's language: GraphQL by
// QueryContext.locale, the status card by its `lang`. Without a locale the API keeps its English.
//
// `{name}` is a parameter. A value given as { one, other } is chosen by the plural rule of the
// `n` parameter in that language (Chinese has no plural forms: a plain string).
//
// The English entries reproduce the API's text as it was before this catalog, word for word:
// scripts match on it. catalog.test.ts checks that zh has every en key and the same parameters.
//
// Terms (the dashboard's web/src/i18n/zh.ts and the card's shared/snapshot/messages.ts use the
// same words):
// - A usage token (what a model reads and writes, what is billed) is "Token", kept in Latin
//   letters as the Chinese consoles of LLM providers print it (DeepSeek, Alibaba Cloud Bailian,
//   Volcano Engine Ark, Moonshot: "Token 用量"). The standardized 词元 is rare in product UIs and
//   令牌 reads as a credential there.
// - The API credential (the dashboard's sign-in token) is 令牌, and only that.
// - Agent 智能体, sub-agent 子智能体, channel 渠道, session 会话, transcript 对话记录.

export type Template = string | { readonly one: string; readonly other: string };

export const en = {
  // The gateway monitor's own reasons (gateway.error, stored as this English; see gateway-text.ts).
  "gateway.demo": "demo mode: no gateway",
  "gateway.noPort": "no gateway port known",
  "gateway.notOk": "healthz did not answer ok",

  // gateway: /healthz
  "health.gateway.demoNone": "demo mode: no demo gateway answers",
  "health.gateway.firstProbe": "first probe running",
  "health.gateway.answered": "healthz answered in {latency}",
  // The probe's own error text (an OS or HTTP error) is the parameter.
  "health.gateway.error": "{error}",
  "health.gateway.noAnswer": "the gateway does not answer /healthz",

  // ready: /readyz
  "health.ready.down": "the gateway is down",
  "health.ready.noAnswer": "readyz did not answer",
  "health.ready.failing": "failing: {checks}",
  "health.ready.notReady": "readyz says not ready",

  // event-loop: /readyz's delay figures
  "health.eventLoop.unknown": "no event-loop figures (readyz)",
  "health.eventLoop.delay": "p99 delay {delay}",
  "health.eventLoop.delayDegraded": "p99 delay {delay}, reported degraded",

  // channels
  "health.channels.unavailable": "channel status unavailable: {error}",
  "health.channels.notProbed": "not probed yet",
  "health.channels.none": "no channels configured",
  "health.channels.allDown": { one: "the only channel is disconnected", other: "all {n} channels disconnected" },
  "health.channels.someDown": "disconnected: {channels}",
  "health.channels.connected": "{n} connected",

  // sources: the agents' data sources
  "health.sources.stateDir": "{error}",
  "health.sources.failed": "{errors}",
  "health.sources.agentError": "{id}: {error}",
  "health.sources.unknownError": "error",
  "health.sources.disconnected": "disconnected: {ids}",
  "health.sources.scanning": "first scan running: {ids}",
  "health.sources.skipped": "unreadable files skipped until they change: {files}",
  "health.sources.none": "no agents found",
  "health.sources.connected": { one: "{n} agent connected", other: "{n} agents connected" },
  "health.sources.noInstalls": "no installs found",
  "health.sources.installsConnected": { one: "{n} install read", other: "{n} installs read" },

  // detection: how changes to the sources' files are noticed
  "health.detection.watching": { one: "watching {n} source for changes", other: "watching {n} sources for changes" },
  "health.detection.polling": "polling only (changes seen at the next poll): {sources}",

  // rate-limit: the plan's windows as Codex recorded them
  "health.rateLimit.none": "no rate limits recorded yet",
  "health.rateLimit.primary": "5-hour window",
  "health.rateLimit.secondary": "weekly window",
  "health.rateLimit.used": "{used}% of the {window} used ({source})",
  "health.rateLimit.stale": "{used}% of the {window} at the last rollout, since reset ({source})",
  "health.rateLimit.noStatusLine": "no plan windows: Claude Code's status line is not set up (run `insightsctl statusline install`)",
  "health.rateLimit.apiKey": "no plan windows: Claude Code sent none after a response (an API-key login has none)",
  "health.rateLimit.waiting": "no plan windows yet: Claude Code sends them after a session's first response",

  // pricing: models with no known price (Claude Code, Codex)
  "health.pricing.ok": "every model priced",
  "health.pricing.unpriced": { one: "{n} response of a model with no known price: {models}; add it to `prices` in config.json", other: "{n} responses of models with no known price: {models}; add them to `prices` in config.json" },

  // disk: free space where our state lives
  "health.disk.unmeasured": "free space not measured yet",
  "health.disk.failed": "free space cannot be measured: {error}",
  "health.disk.low": "{used}% used, {free} free",
  "health.disk.free": "{free} free",

  // store: our SQLite file
  "health.store.error": "{error}",
  "health.store.noAnswer": "the store does not answer",

  // How list parameters are joined.
  "list.comma": ", ",
  "list.semicolon": "; ",
} as const satisfies Record<string, Template>;

export type MessageId = keyof typeof en;

export const zh: Readonly<Record<MessageId, Template>> = {
  "gateway.demo": "演示模式：没有网关",
  "gateway.noPort": "不知道网关的端口（OpenClaw 配置和网关锁文件都没有给出）",
  "gateway.notOk": "healthz 没有返回正常",

  "health.gateway.demoNone": "演示模式：没有演示网关应答",
  "health.gateway.firstProbe": "首次探测进行中",
  "health.gateway.answered": "healthz 响应耗时 {latency}",
  "health.gateway.error": "网关无响应：{error}",
  "health.gateway.noAnswer": "网关未响应 /healthz",

  "health.ready.down": "网关已停止",
  "health.ready.noAnswer": "readyz 没有响应",
  "health.ready.failing": "未就绪的部分：{checks}",
  "health.ready.notReady": "readyz 报告尚未就绪",

  "health.eventLoop.unknown": "没有事件循环数据（readyz）",
  "health.eventLoop.delay": "p99 延迟 {delay}",
  "health.eventLoop.delayDegraded": "p99 延迟 {delay}，网关报告已降级",

  "health.channels.unavailable": "无法获取渠道状态：{error}",
  "health.channels.notProbed": "尚未探测",
  "health.channels.none": "未配置渠道",
  "health.channels.allDown": "全部 {n} 个渠道均已断开",
  "health.channels.someDown": "已断开：{channels}",
  "health.channels.connected": "{n} 个已连接",

  "health.sources.stateDir": "无法读取状态目录：{error}",
  "health.sources.failed": "读取失败：{errors}",
  "health.sources.agentError": "{id}：{error}",
  "health.sources.unknownError": "错误",
  "health.sources.disconnected": "已断开：{ids}",
  "health.sources.scanning": "首次扫描进行中：{ids}",
  "health.sources.skipped": "无法读取的文件已跳过（文件变化后重试）：{files}",
  "health.sources.none": "未找到智能体",
  "health.sources.connected": "{n} 个智能体已连接",
  "health.sources.noInstalls": "未找到安装",
  "health.sources.installsConnected": "已读取 {n} 个安装",
  "health.detection.watching": "正在监视 {n} 个数据源的变化",
  "health.detection.polling": "仅轮询（变化在下一次轮询时才被发现）：{sources}",
  "health.rateLimit.none": "尚未记录速率限制",
  "health.rateLimit.primary": "5 小时窗口",
  "health.rateLimit.secondary": "每周窗口",
  "health.rateLimit.used": "{window}已用 {used}%（{source}）",
  "health.rateLimit.stale": "最近一次记录时{window}已用 {used}%，之后已重置（{source}）",
  "health.rateLimit.noStatusLine": "无套餐窗口：未设置 Claude Code 的状态栏（运行 `insightsctl statusline install`）",
  "health.rateLimit.apiKey": "无套餐窗口：Claude Code 在响应后未提供（API 密钥登录没有套餐窗口）",
  "health.rateLimit.waiting": "尚无套餐窗口：Claude Code 在会话的首次响应后才提供",
  "health.pricing.ok": "所有模型均有价格",
  "health.pricing.unpriced": "{n} 条响应所用模型没有已知价格：{models}；请在 config.json 的 `prices` 中添加",

  "health.disk.unmeasured": "尚未测量可用空间",
  "health.disk.failed": "无法测量可用空间：{error}",
  "health.disk.low": "已用 {used}%，可用 {free}",
  "health.disk.free": "可用 {free}",

  "health.store.error": "存储出错：{error}",
  "health.store.noAnswer": "存储没有响应",

  "list.comma": "、",
  "list.semicolon": "；",
};

export const CATALOG: Readonly<Record<"en" | "zh", Readonly<Record<MessageId, Template>>>> = { en, zh };
