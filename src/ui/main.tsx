// The status page's entry point (bundled by src/server/ui.ts): the page's one element gets the app.
import { render } from "preact";
import { App } from "./app.js";
import "./style.css";

render(<App />, document.getElementById("app")!);
