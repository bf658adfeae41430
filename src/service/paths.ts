// The service's addresses under its base URL (docs/service-contract.md, Endpoints): the two JSON
// endpoints, and the open-form page with its key as one path segment.

/** Which service call a request is. */
export type Operation = 'obtain_token' | 'payout';

/** The service's POST endpoints under its base URL. */
export const SERVICE_PATHS: Readonly<Record<Operation, string>> = {
  obtain_token: '/api/jsapi/obtain_token/',
  payout: '/api/payout/',
};

/** The path the service opens its form under, appended to the base URL's own path. */
export const OPEN_FORM_PATH = '/api/jsapi/open/';

/** The key as one path segment: every byte outside the unreserved set is percent-encoded. */
export function encodeKeySegment(key: string): string {
  // encodeURIComponent leaves !'()* alone; they are harmless in a path but encoding them too keeps
  // the segment strictly RFC 3986 unreserved, so no parser can read structure into it.
  return encodeURIComponent(key).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `{base}/api/jsapi/open/{key}/` for a base URL already normalised without a trailing slash. */
export function openFormPath(base: string, key: string): string {
  return `${base}${OPEN_FORM_PATH}${encodeKeySegment(key)}/`;
}

/**
 * The key (decoded) and the trailing action segment of a path under the open-form path, or undefined
 * for any other path. `/api/jsapi/open/{key}/` gives `{ key, rest: '' }`; `/api/jsapi/open/{key}/pay`
 * gives `{ key, rest: 'pay' }`. A segment that does not decode gives the key ''.
 */
export function parseOpenFormPath(pathname: string): { key: string; rest: string } | undefined {
  if (!pathname.startsWith(OPEN_FORM_PATH)) return undefined;
  const tail = pathname.slice(OPEN_FORM_PATH.length);
  const slash = tail.indexOf('/');
  if (slash <= 0) return undefined;
  const rest = tail.slice(slash + 1);
  if (rest.includes('/')) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(tail.slice(0, slash));
  } catch {
    key = '';
  }
  return { key, rest };
}
