import swaggerUi from "swagger-ui-dist/package.json" with { type: "json" };

/**
 * The API reference's browser files: Swagger UI's standalone bundle and its stylesheet, from the
 * exactly pinned `swagger-ui-dist` package (no CDN). The client build copies them into
 * dist/public under names carrying the version, so they are served under /assets/ like the
 * app's files (immutable, precompressed) and embedded in the single binary with them.
 */
export const DOCS_UI_FILES = {
  script: { from: "swagger-ui-dist/swagger-ui-bundle.js", name: `swagger-ui-bundle-${swaggerUi.version}.js` },
  style: { from: "swagger-ui-dist/swagger-ui.css", name: `swagger-ui-${swaggerUi.version}.css` },
} as const;
