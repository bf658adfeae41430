// The browser entry bundled the way a merchant gets it: one minified ES module, Lit in production mode
// (esbuild resolves Lit's "default" export condition, not "development"), no Node modules. Used by
// bench/form-open (so dev-mode noise is not measured) and by the no-secret test of the bundle.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Bundles `entry` (default the browser entry src/element/index.ts) and returns the code and its input files. */
export async function buildBrowserBundle(entry = 'src/element/index.ts'): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  return { code: output.text, inputs: Object.keys(result.metafile.inputs) };
}
