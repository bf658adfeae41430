// The merchant page's Content-Security-Policy as far as the element needs it (docs/security.md): may
// the page frame the service's origin, and the least policy that lets it.

/** The directive that governs frames, in CSP Level 3's fallback order. */
const FRAME_DIRECTIVES = ['frame-src', 'child-src', 'default-src'] as const;

function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    // The first of a repeated directive counts, as browsers do.
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** Whether a source expression lets `origin` (scheme://host[:port]) load, on a page at `self`. */
function matches(source: string, origin: URL, self: string): boolean {
  const s = source.toLowerCase();
  if (s === "'self'") return origin.origin === self;
  if (s === '*') return origin.protocol === 'http:' || origin.protocol === 'https:';
  if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return origin.protocol === s || (s === 'http:' && origin.protocol === 'https:');
  const found = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?/.exec(s);
  if (!found || s.startsWith("'")) return false;
  const [, scheme, wildcard, host = '', port] = found;
  if (scheme && scheme !== origin.protocol.slice(0, -1) && !(scheme === 'http' && origin.protocol === 'https:')) return false;
  const hostOk = wildcard ? origin.hostname.endsWith(`.${host}`) : origin.hostname === host;
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  const portOk = port === '*' || (port ?? (scheme ? (scheme === 'https' ? '443' : '80') : defaultPort)) === (origin.port || defaultPort);
  return hostOk && portOk;
}

/** Whether `policy` (one header value) lets a page on origin `self` frame `serviceOrigin`. */
export function cspAllowsFrame(policy: string, serviceOrigin: string, self: string): boolean {
  const found = directives(policy);
  const governing = FRAME_DIRECTIVES.find((name) => found.has(name));
  if (governing === undefined) return true;
  const origin = new URL(serviceOrigin);
  return (found.get(governing) ?? []).some((source) => matches(source, origin, self));
}

/** The least policy the element needs on a page: the service framed, the token and status requests,
 *  and the element's reachability check to the service's origin. */
export function minimalCsp(baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  return `Content-Security-Policy: frame-src ${origin}; connect-src 'self' ${origin}`;
}
