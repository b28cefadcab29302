// Entry point: styles, the saved theme and language applied before the first render, then the app.
import { render } from "preact";
import "./styles/fonts.css";
import "./styles/tokens.css";
import "virtual:provider-colors.css";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/views.css";
import { App } from "./app";
import { applyLang } from "./i18n/i18n";
import { applyTheme } from "./state/theme";

applyTheme();
applyLang();
render(<App />, document.getElementById("app") as HTMLElement);
