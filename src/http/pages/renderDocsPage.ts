import { escapeHtml } from "./escapeHtml.js";

/** Options of renderDocsPage. */
export interface DocsPageOptions {
  /** Where this server serves RapiDoc's script. */
  scriptUrl: string;
  /** Where this server serves the OpenAPI document. */
  specUrl: string;
}

const SYSTEM_FONT = `system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
const MONO_FONT = "ui-monospace, Menlo, Consolas, monospace";

/**
 * The HTML of GET /docs: RapiDoc over the OpenAPI document, everything from this server.
 * load-fonts="false" matters: RapiDoc otherwise fetches Open Sans from fonts.gstatic.com, which
 * fails offline and leaks every reader's address to a third party; system fonts replace it.
 */
export function renderDocsPage(options: DocsPageOptions): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>swapgraph API reference</title>
    <link rel="icon" href="data:,">
    <script type="module" src="${escapeHtml(options.scriptUrl)}"></script>
  </head>
  <body>
    <rapi-doc
      spec-url="${escapeHtml(options.specUrl)}"
      load-fonts="false"
      regular-font="${escapeHtml(SYSTEM_FONT)}"
      mono-font="${escapeHtml(MONO_FONT)}"
      render-style="read"
      theme="light"
      show-header="false"
      allow-spec-url-load="false"
      allow-spec-file-load="false"
      allow-authentication="false"
      allow-server-selection="false"
      schema-style="table"
      schema-expand-level="3"
      default-schema-tab="schema"
    ></rapi-doc>
  </body>
</html>
`;
}
