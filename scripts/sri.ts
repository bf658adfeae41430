// Subresource Integrity: the sha384 hash the browser checks before it runs a script-tag bundle.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export async function sriOf(file: URL): Promise<string> {
  return `sha384-${createHash('sha384').update(await readFile(file)).digest('base64')}`;
}
