// A stand-in for the payment service's open-form address, served from a second loopback origin.
// What the framed page does is chosen by the key, so each test picks a behaviour:
//   hang-*        never answers (load-timeout)
//   success-*     sends the frame to the merchant's return page with status=success
//   fail-*        the same with status=fail
//   loading-success-*, loading-fail-*  the same to a return page that posts while it is still loading
//                 (test/fixtures/pages/return-loading.html: the frame never fires load)
//   spoof-*       posts a result message straight from the service's origin (must be ignored)
//   pay-*         a form with Pay and Decline buttons that go to the return page (keyboard paying)
//   anything else a plain form page that echoes the key (escaped)
// Tests read both origins with executeServerCommand('origins') and the keys the service saw with
// executeServerCommand('service-requests'). The element's reachability check (HEAD /) is kept apart,
// in executeServerCommand('service-probes'); executeServerCommand('closed-origin') is an origin on a
// loopback port that was bound and closed again, where nothing answers. executeServerCommand('probes-hang',
// true) holds every later check open without an answer (false answers them again).
//
// The page's own origin also gets a merchant token endpoint under /__token/, so token-url is tested
// against a real same-origin HTTP answer: /__token/raw?body=<text>&status=<code> answers <text> with
// that status (default 200) as application/json; /__token/hang never answers. Every request is recorded
// (method, content type, cookie, body, whether the browser aborted it) for
// executeServerCommand('token-requests').
// /__status on the page's origin is a merchant status endpoint as docs/element.md describes it
// (GET ?order_ref=…): 200 {"status","invoice_id"} once the test sets the order's verified status with
// executeServerCommand('status-set', { orderRef, status, invoice_id }); until then a long poll of
// STATUS_WAIT_MS ending in 204 (a set status wakes a waiting request at once); 404 {"success":false,
// "message":"Order not found"} for no order_ref or one starting "unknown-"; "flaky-" orders get one 503
// (retry-after: 1) first; "down-" orders always get 503 without retry-after, "busy-" orders always 503
// with retry-after: 1, "broken-" orders always 500; "drop-" orders get their connection closed without
// an answer (a network error; answer "dropped"); "html-" orders get a 200 HTML page; "htmljson-" orders
// get a well-formed status served as text/html. executeServerCommand('redirect-requests') lists the
// order_refs /__status-redirect* was asked for.
// The network, cut and restored (test/browser/network.test.ts): executeServerCommand('network-cut',
// { restoreAfter, set }) cuts the test page off for restoreAfter ms where the engine can (Chromium: the
// DevTools protocol's network conditions through Playwright; Firefox: WebDriver BiDi's
// emulation.setNetworkConditions through puppeteer-core, where it has it: not Firefox ESR 140), and in every engine /__status and /__token/
// requests are dropped meanwhile (held long polls too), which is all WebKit gets: WebKitWebDriver has no
// network conditions, so there the page dispatches online/offline itself. A page really cut off hears the
// command's answer only when the network is back. executeServerCommand('network-how') says which it is:
// "devtools", "bidi" or "server". `set` ({ orderRef, status, invoice_id }) is recorded at the cut: a callback arriving while the
// shopper is offline. executeServerCommand('network-restore') ends a cut at once.
// executeServerCommand('status-requests', { orderRef }) lists what was asked for that order (its
// attempt parameter, the answer's status, when it was asked and when it ended). /__status-redirect?order_ref=…
// answers 302 to the service's origin, whose /__status-forged answers a forged success with open CORS
// (executeServerCommand('forged-requests') lists the order_refs it served); /__status-redirect-same?…
// answers 302 to /__status.
// /__return-page?status=… on the page's origin is docs/element.md's return page, word for word but for
// its script's address (the build's dist/pay-form-return.min.js) and hash (the README's), served with
// a CSP that allows no inline script; the service sends "docreturn-success-" and "docreturn-fail-" keys
// there.
// /__frame/... on the page's origin answers a quiet same-origin page, so with base-url `${page}/__frame`
// a test can run script inside the element's own iframe and post any message from it. /__hang on the
// page's origin never answers (until the server stops).
import http from 'node:http';
import { readFileSync } from 'node:fs';

const escapeHtml = (s) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export function serviceOriginPlugin() {
  let server;
  let serviceOrigin;
  let pageOrigin;
  const sockets = new Set();
  const seen = [];
  const probes = [];
  let probesHang = false;
  let closedOrigin;
  const tokenRequests = [];
  const STATUS_WAIT_MS = 300;
  const statuses = new Map();
  const statusRequests = [];
  const statusWaiters = new Map();
  const forged = [];
  const redirects = [];
  /** The network is cut (network-cut): every /__status and /__token/ request is dropped. */
  let cut = false;
  let restoreTimer;
  /** How the cut reached the engine, to undo it: the page's offline switch, or nothing (WebKit). */
  let restoreEngine = async () => {};

  function handleToken(req, res) {
    const url = new URL(req.url, pageOrigin);
    if (cut) {
      tokenRequests.push({ method: req.method, path: url.pathname, dropped: true });
      return req.socket.destroy();
    }
    const record = {
      method: req.method,
      path: url.pathname,
      contentType: req.headers['content-type'] ?? null,
      cookie: req.headers.cookie ?? null,
      body: '',
      aborted: false,
    };
    tokenRequests.push(record);
    let answered = false;
    res.on('close', () => {
      if (!answered) record.aborted = true;
    });
    req.setEncoding('utf8');
    req.on('data', (chunk) => (record.body += chunk));
    req.on('end', () => {
      if (url.pathname === '/__token/hang') return;
      answered = true;
      const status = Number(url.searchParams.get('status') ?? '200');
      res.writeHead(status, { 'content-type': 'application/json' }).end(url.searchParams.get('body') ?? '');
    });
  }

  function handleStatus(req, res) {
    const url = new URL(req.url, pageOrigin);
    const orderRef = url.searchParams.get('order_ref');
    const record = {
      orderRef,
      attempt: url.searchParams.get('attempt'),
      method: req.method,
      accept: req.headers.accept ?? null,
      cookie: req.headers.cookie ?? null,
      answer: null,
      at: Date.now(),
      ended: null,
    };
    statusRequests.push(record);
    // When the answer went out, or the browser gave the request up.
    res.on('close', () => (record.ended = Date.now()));
    const json = (status, body) => {
      record.answer = status;
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    if (cut || orderRef?.startsWith('drop-')) {
      record.answer = 'dropped';
      return req.socket.destroy();
    }
    if (orderRef === null || orderRef === '' || orderRef.startsWith('unknown-')) return json(404, { success: false, message: 'Order not found' });
    if (orderRef.startsWith('flaky-') && !statusRequests.some((r) => r !== record && r.orderRef === orderRef)) {
      record.answer = 503;
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"success":false}');
      return;
    }
    const down = /^(down|busy|broken)-/.exec(orderRef)?.[1];
    if (down) {
      record.answer = down === 'broken' ? 500 : 503;
      res.writeHead(record.answer, { 'content-type': 'application/json', ...(down === 'busy' && { 'retry-after': '1' }) }).end('{"success":false}');
      return;
    }
    if (orderRef.startsWith('htmljson-')) {
      record.answer = 200;
      res.writeHead(200, { 'content-type': 'text/html' }).end(JSON.stringify({ status: 'success', invoice_id: `FORGED-${orderRef}` }));
      return;
    }
    if (orderRef.startsWith('html-')) {
      record.answer = 200;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<img src=x onerror="window.statusHtmlRan = true">');
      return;
    }
    const known = statuses.get(orderRef);
    if (known) return json(200, known);
    const waiters = statusWaiters.get(orderRef) ?? new Set();
    statusWaiters.set(orderRef, waiters);
    const wake = (drop) => {
      clearTimeout(timer);
      waiters.delete(wake);
      if (drop) {
        record.answer = 'dropped';
        return req.socket.destroy();
      }
      const found = statuses.get(orderRef);
      if (found) return json(200, found);
      record.answer = 204;
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
    };
    const timer = setTimeout(wake, STATUS_WAIT_MS);
    waiters.add(wake);
    res.on('close', () => {
      clearTimeout(timer);
      waiters.delete(wake);
    });
  }

  function redirectStatus(req, res) {
    const url = new URL(req.url, pageOrigin);
    redirects.push(url.searchParams.get('order_ref'));
    const target = url.pathname === '/__status-redirect' ? `${serviceOrigin}/__status-forged` : `${pageOrigin}/__status`;
    res.writeHead(302, { location: `${target}${url.search}`, 'cache-control': 'no-store' }).end();
  }

  /** Cuts the page off where its engine can (the launcher's page: Playwright's or puppeteer-core's), and the two endpoints everywhere. */
  async function cutNetwork(session, { restoreAfter, set }) {
    cut = true;
    // The long polls held open end as a network error, as they would on a phone that lost its signal.
    for (const waiters of statusWaiters.values()) for (const wake of [...waiters]) wake(true);
    if (set) setStatus(set);
    const page = session.browser.getPage?.(session.id);
    const how = await cutHow(session);
    if (how === 'devtools') {
      await page.context().setOffline(true);
      restoreEngine = () => page.context().setOffline(false);
    } else if (how === 'bidi') {
      await page.setOfflineMode(true);
      restoreEngine = () => page.setOfflineMode(false);
    }
    restoreTimer = setTimeout(restoreNetwork, restoreAfter);
    return true;
  }

  /** Whether each puppeteer page's Firefox takes WebDriver BiDi's network conditions: Firefox ESR 140
   *  has no emulation.setNetworkConditions, and then gets what WebKit gets. */
  const bidiNetwork = new WeakMap();

  /** How network-cut reaches this session's engine. */
  async function cutHow(session) {
    const page = session.browser.getPage?.(session.id);
    if (page?.context) return 'devtools';
    if (!page?.setOfflineMode) return 'server';
    if (!bidiNetwork.has(page)) {
      // Asked once, with a change that changes nothing (online while online).
      const takes = await page.setOfflineMode(false).then(
        () => true,
        (error) => {
          if (String(error?.message).includes('unknown command')) return false;
          throw error;
        },
      );
      bidiNetwork.set(page, takes);
    }
    return bidiNetwork.get(page) ? 'bidi' : 'server';
  }

  async function restoreNetwork() {
    clearTimeout(restoreTimer);
    cut = false;
    const restore = restoreEngine;
    restoreEngine = async () => {};
    await restore();
    return true;
  }

  function setStatus({ orderRef, status, invoice_id }) {
    statuses.set(orderRef, { status, invoice_id });
    for (const wake of [...(statusWaiters.get(orderRef) ?? [])]) wake();
    return true;
  }

  /** docs/element.md's return page, its script pointed at the build and given the README's hash. */
  function docsReturnPage() {
    const root = new URL('../../', import.meta.url);
    const doc = readFileSync(new URL('docs/element.md', root), 'utf8');
    const html = /## The return page[\s\S]*?```html\n([\s\S]*?)\n```/.exec(doc)?.[1];
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const hash = /pay-form-return\.min\.js"\s+integrity="([^"]+)"/.exec(readme)?.[1];
    if (!html || !hash) throw new Error('docs/element.md has no return page, or the README no hash for it');
    return html.replace(/src="[^"]*pay-form-return\.min\.js"/, 'src="/__dist/pay-form-return.min.js"').replace(/integrity="[^"]*"/, `integrity="${hash}"`);
  }

  const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment form</title></head><body>${body}</body></html>`;

  function handle(req, res) {
    const url = new URL(req.url, serviceOrigin);
    if (req.method === 'HEAD' && url.pathname === '/') {
      probes.push({ path: url.pathname, cookie: req.headers.cookie ?? null });
      if (!probesHang) res.writeHead(404).end();
      return;
    }
    if (url.pathname === '/__status-forged') {
      const orderRef = url.searchParams.get('order_ref');
      forged.push(orderRef);
      res
        .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        .end(JSON.stringify({ status: 'success', invoice_id: `FORGED-${orderRef}` }));
      return;
    }
    const match = /^\/api\/jsapi\/open\/([^/]*)\/$/.exec(url.pathname);
    if (!match) {
      seen.push({ path: url.pathname, key: null });
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const key = decodeURIComponent(match[1]);
    seen.push({ path: url.pathname, key });
    const returnTo = (status, page = 'return') => `${pageOrigin}/test/fixtures/pages/${page}.html?status=${status}`;
    const send = (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(html));
    if (key.startsWith('hang-')) return; // held open until the server stops
    // A page the service will not let be framed, by either header.
    if (key.startsWith('xfo-')) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' }).end(page('<h1>Refused</h1>'));
    if (key.startsWith('fa-')) {
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "frame-ancestors 'none'" }).end(page('<h1>Refused</h1>'));
    }
    const redirect = /^(loading-)?(success|fail)-/.exec(key);
    if (redirect) {
      const url = returnTo(redirect[2], redirect[1] ? 'return-loading' : 'return');
      send(`<p>Redirecting</p><script>location.href = ${JSON.stringify(url)};</script>`);
      return;
    }
    if (key.startsWith('docreturn-')) {
      const status = key.startsWith('docreturn-success-') ? 'success' : 'fail';
      send(`<p>Redirecting</p><script>location.href = ${JSON.stringify(`${pageOrigin}/__return-page?status=${status}`)};</script>`);
      return;
    }
    if (key.startsWith('pay-')) {
      const button = (status, text) =>
        `<form action="${pageOrigin}/test/fixtures/pages/return.html"><input type="hidden" name="status" value="${status}"><button>${text}</button></form>`;
      // Tells the page which button has focus: in Chromium focus lands in a cross-origin frame after
      // the page already sees the frame as focused, and Enter pressed in between reaches no button.
      // The element ignores these messages (not its contract's shape); keyboard tests wait for them. The
      // key report tells a key lost on its way into the frame (CI saw Enter reach nothing once, with
      // Pay focused) from a form that got it and did not pay.
      const focusReport =
        `<script>addEventListener('focusin', (e) => parent.postMessage({ test: 'focus', on: e.target.textContent }, '*'));` +
        `addEventListener('keydown', (e) => parent.postMessage({ test: 'key', key: e.key, on: document.activeElement?.textContent }, '*'), true);</script>`;
      send(`<h1>Payment form</h1>${button('success', 'Pay')}${button('fail', 'Decline')}${focusReport}`);
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
    async serverStart({ config, server: pageServer }) {
      pageOrigin = `http://${config.hostname}:${config.port}`;
      // Koa's stack is already composed here, so the token route goes in front of it on the server.
      const pageListeners = pageServer.listeners('request');
      pageServer.removeAllListeners('request');
      pageServer.on('request', (req, res) => {
        if (req.url === '/__hang') return;
        if (req.url.startsWith('/__token/')) return handleToken(req, res);
        if (req.url.startsWith('/__status?') || req.url === '/__status') return handleStatus(req, res);
        if (req.url.startsWith('/__return-page?')) {
          const csp = "default-src 'none'; script-src 'self'";
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(docsReturnPage());
          return;
        }
        if (req.url.startsWith('/__status-redirect')) return redirectStatus(req, res);
        if (req.url.startsWith('/__frame/')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('<h1>Same-origin form</h1>'));
          return;
        }
        for (const listener of pageListeners) listener.call(pageServer, req, res);
      });
      server = http.createServer(handle);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      serviceOrigin = `http://127.0.0.1:${server.address().port}`;
      const closed = http.createServer();
      await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
      closedOrigin = `http://127.0.0.1:${closed.address().port}`;
      await new Promise((resolve) => closed.close(resolve));
    },
    async serverStop() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
    executeCommand({ command, payload, session }) {
      if (command === 'network-cut') return cutNetwork(session, payload);
      if (command === 'network-restore') return restoreNetwork();
      if (command === 'network-how') return cutHow(session);
      if (command === 'redirect-requests') return [...redirects];
      if (command === 'status-set') return setStatus(payload);
      if (command === 'status-requests') return statusRequests.filter((r) => r.orderRef === payload.orderRef).map((r) => ({ ...r }));
      if (command === 'forged-requests') return [...forged];
      if (command === 'origins') return { page: pageOrigin, service: serviceOrigin };
      if (command === 'service-requests') return seen.splice(0);
      if (command === 'service-probes') return probes.splice(0);
      if (command === 'closed-origin') return closedOrigin;
      if (command === 'probes-hang') return (probesHang = payload === true);
      if (command === 'token-requests') return tokenRequests.map((r) => ({ ...r }));
      if (command === 'token-requests-clear') return tokenRequests.splice(0).length;
      return undefined;
    },
  };
}
