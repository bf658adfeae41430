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

/** The properties are declared from one table (pay-form-properties.ts), which the analyzer cannot read:
 *  each @attr documented on a class gets its property (the attribute's name in camel case, see
 *  attributeOf there) with that field's type and default, as the analyzer writes for `static properties`. */
function attributeFields() {
  const camel = (name) => name.replace(/-([a-z])/g, (_m, letter) => letter.toUpperCase());
  return {
    name: 'pay-form-attribute-fields',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          const fields = (declaration.members ?? []).filter((member) => member.kind === 'field' && member.default !== undefined && member.privacy !== 'private');
          // Every table row is public, whether it has an attribute (fetchToken has none) or not.
          for (const field of fields) field.privacy = 'public';
          for (const attribute of declaration.attributes ?? []) {
            const field = fields.find((member) => member.name === camel(attribute.name));
            if (field === undefined) continue;
            Object.assign(attribute, { ...(field.type && { type: field.type }), default: field.default, fieldName: field.name });
            field.attribute = attribute.name;
          }
        }
      }
    },
  };
}

export default {
  globs: ['src/element/pay-form.ts', 'src/element/pay-form-properties.ts', 'src/element/pay-form-define.ts'],
  outdir: 'dist',
  litelement: true,
  plugins: [firesOnly(), attributeFields()],
};
