// Lit's css-tag.js as the script-tag bundles carry it: scripts/build.ts puts this module in place of
// @lit/reactive-element's own in those bundles only (the npm modules keep Lit's, for the apps that
// bundle Lit themselves). Lit's module also serves browsers that cannot adopt constructed style sheets
// (a <style> per element, with litNonce) and checks what its css tag is given. Every engine these
// bundles run in adopts style sheets (their class static blocks already need Safari 16.4, Firefox 93
// and Chrome 94; constructed sheets came in Safari 16.4, Firefox 101 and Chrome 73), and their one
// style is a constant of ours (src/element/pay-form.styles.ts). What stays is Lit's behaviour on those
// engines: one sheet, made when the first element connects, adopted by each element's shadow root
// (which needs no style-src exception from the page's CSP). About 290 B of each bundle's gzip.

export const supportsAdoptingStyleSheets = true;

/** Lit's name, for its re-export; these bundles make their style with unsafeCSS. Without Lit's toString():
 *  Lit reads cssText, and nothing in these bundles writes their one style as a string (-9 / -8 B gzip). */
export class CSSResult {
  sheet?: CSSStyleSheet;
  constructor(readonly cssText: string) {}
}

/** Only ever given a string in these bundles (the styles' constant, the css tag's text), so no String() around it. */
export const unsafeCSS = (value: unknown): CSSResult => new CSSResult(value as string);

export const css = (strings: TemplateStringsArray, ...values: unknown[]): CSSResult =>
  unsafeCSS(values.reduce<string>((text, value, i) => text + (value instanceof CSSResult ? value.cssText : String(value)) + strings[i + 1], strings[0] ?? ''));

export const adoptStyles = (root: ShadowRoot, styles: CSSResult[]): void => {
  root.adoptedStyleSheets = styles.map((style) => {
    if (!style.sheet) (style.sheet = new CSSStyleSheet()).replaceSync(style.cssText);
    return style.sheet;
  });
};

export const getCompatibleStyle = (style: CSSResult): CSSResult => style;
