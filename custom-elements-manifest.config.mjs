// @custom-elements-manifest/analyzer settings: the manifest is made from pay-form.ts's JSDoc (its
// properties come from pay-form-properties.ts, the base class)
// (@attr, @fires, @csspart, @cssprop) and written to dist/, which package.json's customElements names.
const pascal = (name) => name.replace(/(^|-)([a-z])/g, (_m, _d, letter) => letter.toUpperCase());

/** Events come from the @fires tags, typed by their detail interface in events.ts. The analyzer also
 *  reports `dispatchEvent(new CustomEvent(name))` inside #emit as an event called "name": drop it. */
function firesOnly() {
  return {
    name: 'pay-form-fires-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.events) continue;
          declaration.events = declaration.events
            .filter((event) => event.description !== undefined && event.name.startsWith('pay-form-'))
            .map((event) => ({ ...event, type: { text: `CustomEvent<${pascal(event.name)}Detail>` } }));
        }
      }
    },
  };
}

export default {
  globs: ['src/element/pay-form.ts', 'src/element/pay-form-properties.ts', 'src/element/pay-form-define.ts'],
  outdir: 'dist',
  litelement: true,
  plugins: [firesOnly()],
};
