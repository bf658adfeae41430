// The TypeScript blocks of README.md and docs/, as a reader copies them: test/node/package/docs-typecheck
// type-checks every one, and the Next.js consumer test builds its app from the `<!-- next: PATH -->` ones.
import { readdir, readFile } from 'node:fs/promises';

const ROOT = new URL('../../../', import.meta.url);
const BLOCK = /(?:<!-- (recipe|next): (\S+) -->\n)?```(ts|tsx)\n([\s\S]*?)\n```/g;

export interface DocBlock {
  page: string;
  /** `recipe` (the block is that file of the repository), `next` (a file of the Next.js app), or none. */
  kind: 'recipe' | 'next' | undefined;
  /** The marked path, or a name of its own made from the page and the block's place on it. */
  file: string;
  text: string;
}

/** README.md and every page of docs/. */
export async function docPages(): Promise<string[]> {
  const docs = (await readdir(new URL('docs/', ROOT))).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** Every TypeScript block (```ts and ```tsx) of the pages, in page order. */
export async function docBlocks(): Promise<DocBlock[]> {
  const blocks: DocBlock[] = [];
  for (const page of await docPages()) {
    const markdown = await readFile(new URL(page, ROOT), 'utf8');
    let n = 0;
    for (const [, kind, marked, lang, text = ''] of markdown.matchAll(BLOCK)) {
      n++;
      const file = marked ?? `${page.replace(/[/.]/g, '-')}-${n}.${lang}`;
      blocks.push({ page, kind: kind as DocBlock['kind'], file, text });
    }
  }
  return blocks;
}
