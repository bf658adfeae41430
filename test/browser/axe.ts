// axe-core for the browser tests. `expect(el).to.be.accessible()` (chai-a11y-axe) runs the rules axe
// enables by default, which leave out some of WCAG 2.2 AA (target-size, 2.5.8): every rule tagged with
// a WCAG 2.0-2.2 A or AA tag is switched on here, for every test that imports the helpers. The same axe
// gives the accessibility tree as assistive technology gets it (roles, names, live text), computed the
// same way in every engine.
import type * as Axe from 'axe-core';

export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

// The file chai-a11y-axe loads: it sets window.axe, which the assertion then uses.
await import('axe-core/axe.min.js' as string);
export const axe = (window as unknown as { axe: typeof Axe }).axe;
axe.configure({
  rules: axe
    .getRules(WCAG_22_AA)
    .filter((rule) => !rule.tags.includes('experimental'))
    .map((rule) => ({ id: rule.ruleId, enabled: true })),
});

/** One node of the accessibility tree with a role: `role "name"` and, for a live region, what it says. */
export interface AxNode {
  role: string;
  name: string;
  /** The text inside (slots followed), for live regions and dialogs. */
  text: string;
}

interface Commons {
  aria: { getRole(node: Axe.VirtualNode): string | null };
  text: { accessibleTextVirtual(node: Axe.VirtualNode): string };
  dom: { isVisibleToScreenReaders(node: Axe.VirtualNode): boolean };
}

/**
 * The nodes with a role inside `host` (through its shadow root and slots) that assistive technology
 * can reach: not hidden and not made inert by a modal dialog. An empty live region is listed too, as
 * it stays in the tree, ready to speak.
 */
export function axTree(host: Element): AxNode[] {
  const commons = (axe as unknown as { commons: Commons }).commons;
  const reached = (node: Axe.VirtualNode) => !(node.actualNode instanceof Element) || commons.dom.isVisibleToScreenReaders(node);
  // The flattened tree's text: slotted nodes where a slot has them, its fallback where it has none.
  const textOf = (node: Axe.VirtualNode): string =>
    node.actualNode?.nodeType === Node.TEXT_NODE ? (node.actualNode.nodeValue ?? '') : (node.children ?? []).filter(reached).map(textOf).join('');
  axe.setup(document);
  try {
    const nodes: AxNode[] = [];
    const walk = (node: Axe.VirtualNode) => {
      for (const child of node.children ?? []) {
        if (!(child.actualNode instanceof Element) || !reached(child)) continue;
        const role = commons.aria.getRole(child);
        if (role && role !== 'generic' && role !== 'presentation' && role !== 'none') {
          nodes.push({ role, name: commons.text.accessibleTextVirtual(child), text: textOf(child).replace(/\s+/g, ' ').trim() });
        }
        walk(child);
      }
    };
    const start = (axe.utils as unknown as { getNodeFromTree(node: Node): Axe.VirtualNode | null }).getNodeFromTree(host);
    if (start) walk(start);
    return nodes;
  } finally {
    axe.teardown();
  }
}

/** The live regions' text by role (`status`, `alert`); a region that is absent or empty says ''. */
export function liveText(host: Element): { status: string; alert: string } {
  const tree = axTree(host);
  const text = (role: string) => tree.filter((node) => node.role === role).map((node) => node.text).join(' ');
  return { status: text('status'), alert: text('alert') };
}
