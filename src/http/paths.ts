/** Where the OpenAPI document and its reference page are served (a module with no imports). */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/docs';
