// The theme and language switches, shown in the header and on the sign-in screen.
import type { JSX } from "preact";
import { lang, setLang, t, type Lang } from "../i18n/i18n";
import { setThemeChoice, themeChoice, type ThemeChoice } from "../state/theme";
import { Icon } from "./Icon";
import { Segmented } from "./Segmented";

export function ThemeSwitch(): JSX.Element {
  return (
    <Segmented<ThemeChoice>
      size="sm"
      label={t("prefs.theme")}
      testId="theme-switch"
      value={themeChoice.value}
      onChange={setThemeChoice}
      options={[
        { value: "system", label: <Icon name="monitor" />, title: t("prefs.themeSystem") },
        { value: "light", label: <Icon name="sun" />, title: t("prefs.themeLight") },
        { value: "dark", label: <Icon name="moon" />, title: t("prefs.themeDark") },
      ]}
    />
  );
}

export function LanguageSwitch(): JSX.Element {
  return (
    <Segmented<Lang>
      size="sm"
      label={t("prefs.language")}
      testId="language-switch"
      value={lang.value}
      onChange={setLang}
      options={[
        { value: "en", label: "EN", title: "English" },
        { value: "zh", label: "中文", title: "中文" },
      ]}
    />
  );
}
