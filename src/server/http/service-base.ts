// The one address of the service (docs/server.md, Token endpoint): the token answer carries the base URL
// the page frames the key at, so a page needs token-url and nothing else, and the element refuses a
// base-url of its own that differs (base-url-mismatch) instead of framing the wrong address.
import { checkBaseUrl } from '../../service/form-url.js';
import type { TokenHandlerOptions } from './token-handler.js';

export function publicBaseProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const checked = checkBaseUrl(value);
  return checked.ok ? undefined : checked.message;
}

/** `{ base_url }` for the token answer, or nothing when neither option names the service. */
export function serviceBase(options: Pick<TokenHandlerOptions, 'client' | 'publicBaseUrl'>): { base_url?: string } {
  const raw = options.publicBaseUrl ?? options.client.baseUrl;
  const checked = typeof raw === 'string' ? checkBaseUrl(raw) : undefined;
  return checked?.ok ? { base_url: checked.value } : {};
}
