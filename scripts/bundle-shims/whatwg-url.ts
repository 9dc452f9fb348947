// Stands in for whatwg-url inside the bundle. node-fetch 2 takes URL from node:url and falls back to whatwg-url
// only where node:url has none, which is no runtime the plugin runs on (Node.js 20, bun); the fallback would carry
// tr46's Unicode tables (a tenth of the bundle) for nothing.
import { URL, URLSearchParams } from 'node:url';

export { URL, URLSearchParams };
export default { URL, URLSearchParams };
