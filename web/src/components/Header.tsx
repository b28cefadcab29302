// The top bar: product name, the gateway's state at a glance, the agent picker (only with more
// than one agent), the live mark, and the theme, language and sign-out controls.
import type { JSX } from "preact";
import { logout } from "../api/session";
import { t } from "../i18n/i18n";
import { auth } from "../state/auth";
import { agentId, agents, chooseAgent, shell } from "../state/shell";
import { Icon } from "./Icon";
import { LiveIndicator } from "./LiveIndicator";
import { LanguageSwitch, ThemeSwitch } from "./Preferences";
import logo from "../assets/favicon.svg";

export function Header(): JSX.Element {
  const s = shell.value;
  const gw = s?.system.gateway;
  const a = auth.value;
  return (
    <header class="topbar">
      <div class="brand">
        <img src={logo} alt="" width={28} height={28} />
        <span class="brand-name">{t("app.name")}</span>
        {s?.system.demo ? <span class="badge tone-accent">{t("app.demo")}</span> : null}
      </div>
      {gw ? (
        <a class={`gw-pill tone-${gw.running ? "ok" : "err"}`} href="#/control" data-testid="gateway-pill">
          <span class="dot" aria-hidden="true" />
          <span>{gw.running ? t("gateway.running") : t("gateway.down")}</span>
          {gw.version ? <span class="gw-version">v{gw.version}</span> : null}
        </a>
      ) : null}
      <div class="topbar-tools">
        {agents.value.length > 1 ? (
          <label class="agent-pick">
            <span class="sr-only">{t("header.agent")}</span>
            <select value={agentId.value ?? ""} onChange={(e) => chooseAgent((e.currentTarget as HTMLSelectElement).value)}>
              {agents.value.map((src) => (
                <option key={src.id} value={src.id.replace(/^agent:/, "")}>
                  {src.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
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
