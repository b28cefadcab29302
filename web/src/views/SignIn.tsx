// Shown instead of the dashboard when there is no valid session: no cookie yet, an expired one
// (keys rotate; a new API token signs every browser out), a signed-out one, or a daemon that
// does not answer. It says what happened and what to do, in the user's language.
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { checkSession } from "../api/session";
import { Icon } from "../components/Icon";
import { LanguageSwitch, ThemeSwitch } from "../components/Preferences";
import { t, type MessageKey } from "../i18n/i18n";
import { auth, type SignedOutReason } from "../state/auth";
import logo from "../assets/favicon.svg";

const TITLES: Record<SignedOutReason | "unreachable", MessageKey> = {
  missing: "signin.title",
  expired: "signin.expiredTitle",
  invalid: "signin.invalidTitle",
  "signed-out": "signin.signedOutTitle",
  forbidden: "signin.forbiddenTitle",
  "rate-limited": "signin.rateLimitedTitle",
  unreachable: "signin.unreachableTitle",
};

const BODIES: Record<SignedOutReason | "unreachable", MessageKey> = {
  missing: "signin.missing",
  expired: "signin.expired",
  invalid: "signin.invalid",
  "signed-out": "signin.signedOut",
  forbidden: "signin.forbidden",
  "rate-limited": "signin.rateLimited",
  unreachable: "signin.unreachable",
};

export function SignInView(): JSX.Element {
  const a = auth.value;
  const reason = a.status === "signed-out" ? a.reason : "unreachable";
  useEffect(() => {
    document.title = `${t(TITLES[reason])} · ${t("app.title")}`;
  });
  const showSteps = reason !== "forbidden" && reason !== "unreachable" && reason !== "rate-limited";
  return (
    <div class="signin-page">
      <div class="signin-prefs">
        <LanguageSwitch />
        <ThemeSwitch />
      </div>
      <main class="signin-card" data-testid="signin" data-reason={reason}>
        <img src={logo} alt="" width={40} height={40} />
        <h1>{t(TITLES[reason])}</h1>
        <p class="signin-message" data-testid="signin-message">
          {t(BODIES[reason], { seconds: a.status === "signed-out" && a.retryAfterSeconds ? a.retryAfterSeconds : 60 })}
        </p>
        {showSteps ? (
          <ol class="signin-steps">
            <li>
              {t("signin.step1")} <code>insightsctl url</code> {t("signin.step1b")} <code>insightsctl start</code>
              {t("signin.step1c")}
            </li>
            <li>{t("signin.step2")}</li>
          </ol>
        ) : null}
        {showSteps ? (
          <p class="signin-hint">
            {t("signin.tokenHint")} <code>~/.local/state/gateway-insights/token</code>
          </p>
        ) : null}
        {reason === "unreachable" ? (
          <p class="signin-retry">
            <span class="spinner spinner-sm" aria-hidden="true" /> {t("signin.retrying")}{" "}
            <button type="button" class="btn btn-sm" onClick={() => void checkSession()}>
              <Icon name="refresh" />
              {t("action.retryNow")}
            </button>
          </p>
        ) : null}
      </main>
    </div>
  );
}
