// Renders <pay-form> with @lit-labs/ssr from the built package (dist/), as a merchant's server would.
// Used by the node SSR test and, through web-test-runner.config.mjs, by the browser hydration test.
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { readFile } from 'node:fs/promises';

const dist = new URL('../../../dist/element/index.js', import.meta.url);

/** The element's HTML with its declarative shadow root; lit-html escapes the attribute values. */
export async function renderPayForm(attributes) {
  await import(dist.href);
  return collectResult(
    render(html`<pay-form
      base-url=${ifDefined(attributes['base-url'])}
      key=${ifDefined(attributes.key)}
      display=${ifDefined(attributes.display)}
    ></pay-form>`),
  );
}

/** web-test-runner plugin: GET /__ssr/pay-form?base-url=…&key=… answers the rendered HTML. */
export function ssrPlugin() {
  return {
    name: 'pay-form-ssr',
    async serve(context) {
      if (context.path !== '/__ssr/pay-form') return undefined;
      const query = new URLSearchParams(context.querystring);
      const attributes = {};
      for (const name of ['base-url', 'key', 'display']) if (query.has(name)) attributes[name] = query.get(name);
      return { body: await renderPayForm(attributes), type: 'html' };
    },
  };
}

/**
 * web-test-runner middleware: GET /__dist/<file>.js answers that dist/ file byte for byte. The dev
 * server's plugins rewrite the .js they serve, which would break the files' SRI hashes; middleware
 * that answers without calling next() runs before them.
 */
export function distMiddleware() {
  return async (context, next) => {
    if (!context.path.startsWith('/__dist/')) return next();
    const name = context.path.slice('/__dist/'.length);
    if (!/^[\w.-]+\.js$/.test(name)) {
      context.status = 404;
      return undefined;
    }
    context.type = 'text/javascript';
    context.body = await readFile(new URL(`../../../dist/${name}`, import.meta.url));
    return undefined;
  };
}
