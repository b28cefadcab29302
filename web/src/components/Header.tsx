// The top bar: product name, the state at a glance (OpenClaw's gateway, or the chosen CLI's health),
// the provider → source switcher, the live mark, and the theme, language and sign-out controls.
import type { JSX } from "preact";
import { logout } from "../api/session";
import { t } from "../i18n/i18n";
import { GATEWAY_LABEL, VERDICT_LABEL } from "../lib/labels";
import { hasGateway, PROVIDER_NAME } from "../lib/providers";
import { gatewayTone, verdictTone } from "../lib/tones";
import { auth } from "../state/auth";
import { href, scopeProvider } from "../state/scope";
import { cliSystem, demo, openclaw } from "../state/shell";
import { Icon } from "./Icon";
import { LiveIndicator } from "./LiveIndicator";
import { LanguageSwitch, ThemeSwitch } from "./Preferences";
import { ScopeSwitch } from "./ScopeSwitch";
import logo from "../assets/favicon.svg";

function StatePill(): JSX.Element | null {
  const provider = scopeProvider.value;
  const cli = provider && !hasGateway(provider) ? cliSystem(provider) : null;
  if (cli && provider) {
    const v = cli.health.verdict;
    return (
      <a class={`gw-pill tone-${verdictTone(v)}`} href={href({ name: "overview" })} data-testid="health-pill" data-verdict={v}>
        <span class="dot" aria-hidden="true" />
        <span>
          {PROVIDER_NAME[provider]} · {t(VERDICT_LABEL[v])}
        </span>
        {cli.versions[0] ? <span class="gw-version">v{cli.versions[0]}</span> : null}
      </a>
    );
  }
  // OpenClaw's gateway: for an OpenClaw source, and on "All" when OpenClaw is read.
  const gw = openclaw.value?.gateway;
  if (!gw) return null;
  return (
    <a class={`gw-pill tone-${gatewayTone(gw.state)}`} href={href({ name: "control" }, null)} data-testid="gateway-pill" data-state={gw.state}>
      <span class="dot" aria-hidden="true" />
      <span>{t(GATEWAY_LABEL[gw.state])}</span>
      {gw.version ? <span class="gw-version">v{gw.version}</span> : null}
    </a>
  );
}

export function Header(): JSX.Element {
  const a = auth.value;
  return (
    <header class="topbar">
      <div class="brand">
        <img src={logo} alt="" width={28} height={28} />
        <span class="brand-name">{t("app.name")}</span>
        {demo.value ? <span class="badge tone-accent">{t("app.demo")}</span> : null}
      </div>
      <StatePill />
      <ScopeSwitch />
      <div class="topbar-tools">
        <LiveIndicator />
        <LanguageSwitch />
        <ThemeSwitch />
        {a.status === "ready" && a.mode === "cookie" ? (
          <button type="button" class="btn btn-icon btn-ghost" title={t("action.signOut")} aria-label={t("action.signOut")} onClick={() => void logout()}>
            <Icon name="logout" />
          </button>
        ) : null}
      </div>
    </header>
  );
}
