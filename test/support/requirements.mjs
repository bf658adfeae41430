// The first step of `npm test`: the programs the tests start (the three browser engines, WebKit's
// driver, Xvfb, redis-server; test/support/browsers/engines.mjs) are there, or are installed from Debian's
// packages when this runs as root, or the run stops at once with the one command that installs them.
import { spawnSync } from 'node:child_process';
import { REQUIREMENTS, installCommand, locate, missing, selectedEngines } from './browsers/engines.mjs';

const groups = [...selectedEngines(), 'redis'];
const stop = (message) => {
  console.error(message);
  process.exit(1);
};

// A variable that names a program that is not there is a mistake no package can fix.
const misnamed = missing(groups).filter(({ env }) => process.env[env]);
if (misnamed.length) {
  stop(`npm test: ${misnamed.map(({ env, what }) => `${env}=${process.env[env]} names no ${what}`).join('; ')}. Point it at one, or unset it.`);
}

let absent = missing(groups);
const hasAptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (absent.length && process.getuid?.() === 0 && hasAptGet) {
  const packages = [...new Set(absent.map((r) => r.pkg))];
  console.log(`npm test: installing Debian's ${packages.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) stop(`npm test: apt-get ${args.join(' ')} failed (exit ${run.status})`);
  }
  absent = missing(groups);
}
if (absent.length) {
  const packages = [...new Set(absent.map((r) => r.pkg))];
  const variables = [...new Set(absent.map((r) => r.env))];
  stop(
    [
      `npm test needs Debian's ${packages.join(', ')}: run`,
      `  ${process.getuid?.() === 0 ? '' : 'sudo '}${installCommand(absent)}`,
      `(or set ${variables.join(', ')} to programs you have)`,
    ].join('\n'),
  );
}
// Everything is there: the log says which programs this run uses.
const found = groups.flatMap((group) => REQUIREMENTS[group]).map((r) => `${r.what} ${locate(r)}`);
console.log(`npm test: ${found.join(', ')}`);
