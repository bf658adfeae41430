// A stand-in for the payment service's open-form address, served from a second loopback origin.
// What the framed page does is chosen by the key, so each test picks a behaviour:
//   hang-*        never answers (load-timeout)
//   success-*     sends the frame to the merchant's return page with status=success
//   fail-*        the same with status=fail
//   spoof-*       posts a result message straight from the service's origin (must be ignored)
//   anything else a plain form page that echoes the key (escaped)
// Tests read both origins with executeServerCommand('origins') and the keys the service saw with
// executeServerCommand('service-requests').
import http from 'node:http';

const escapeHtml = (s) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export function serviceOriginPlugin() {
  let server;
  let serviceOrigin;
  let pageOrigin;
  const sockets = new Set();
  const seen = [];

  const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment form</title></head><body>${body}</body></html>`;

  function handle(req, res) {
    const url = new URL(req.url, serviceOrigin);
    const match = /^\/api\/jsapi\/open\/([^/]*)\/$/.exec(url.pathname);
    if (!match) {
      seen.push({ path: url.pathname, key: null });
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const key = decodeURIComponent(match[1]);
    seen.push({ path: url.pathname, key });
    const returnTo = (status) => `${pageOrigin}/test/browser/fixtures/return.html?status=${status}`;
    const send = (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(html));
    if (key.startsWith('hang-')) return; // held open until the server stops
    if (key.startsWith('success-') || key.startsWith('fail-')) {
      const status = key.startsWith('success-') ? 'success' : 'fail';
      send(`<p>Redirecting</p><script>location.href = ${JSON.stringify(returnTo(status))};</script>`);
      return;
    }
    if (key.startsWith('spoof-')) {
      send(`<p>Spoof</p><script>parent.postMessage({ type: 'pay-form:result', status: 'success' }, '*');</script>`);
      return;
    }
    send(`<h1>Payment form</h1><p id="key">${escapeHtml(key)}</p>`);
  }

  return {
    name: 'service-origin',
    async serverStart({ config }) {
      pageOrigin = `http://${config.hostname}:${config.port}`;
      server = http.createServer(handle);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      serviceOrigin = `http://127.0.0.1:${server.address().port}`;
    },
    async serverStop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
    executeCommand({ command }) {
      if (command === 'origins') return { page: pageOrigin, service: serviceOrigin };
      if (command === 'service-requests') return seen.splice(0);
      return undefined;
    },
  };
}
