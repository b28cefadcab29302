import type { JSX } from "preact";
import { Empty } from "../components/States";
import { t } from "../i18n/i18n";

export function NotFoundView(): JSX.Element {
  return (
    <div class="view">
      <Empty title={t("notFound.title")} hint={t("notFound.hint")}>
        <a class="btn" href="#/">
          {t("nav.overview")}
        </a>
      </Empty>
    </div>
  );
}
