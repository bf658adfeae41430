export interface SsrAttributes {
  'base-url'?: string;
  key?: string;
  display?: string;
}
export function renderPayForm(attributes: SsrAttributes): Promise<string>;
export function ssrPlugin(): unknown;
export function distMiddleware(): unknown;
