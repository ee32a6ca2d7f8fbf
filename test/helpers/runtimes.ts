/**
 * The runtimes and installers the shipping tests use besides the Node running them: Node 22 and 26,
 * Bun, Deno, pnpm, Yarn 4 and postject, all from the npm registry. `.ci/run` installs them into a
 * scratch folder (`npm install --prefix node_modules/.cache/ax-runtimes node22@npm:node@22
 * node26@npm:node@26 bun@1 deno@2 …`) and names it in `AX_RUNTIMES`; otherwise each is looked up
 * on PATH, and a test that needs a missing one is skipped with the reason in its title.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A tool the tests may need. */
export type Tool = 'node22' | 'node26' | 'bun' | 'deno' | 'pnpm' | 'yarn' | 'postject';

/** Where each tool lives in an `AX_RUNTIMES` folder (node_modules of the scratch install). */
const IN_FOLDER: Record<Tool, string> = {
  node22: 'node_modules/node22/bin/node',
  node26: 'node_modules/node26/bin/node',
  bun: 'node_modules/.bin/bun',
  deno: 'node_modules/.bin/deno',
  pnpm: 'node_modules/.bin/pnpm',
  yarn: 'node_modules/.bin/yarn',
  postject: 'node_modules/.bin/postject',
};

/** The version a Node binary reports (`v22.…`), or undefined when it does not run. */
function nodeMajor(bin: string): number | undefined {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const m = r.status === 0 ? /^v(\d+)\./.exec(r.stdout.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

/** The path of `tool`, or undefined when it is not there. */
export function findTool(tool: Tool): string | undefined {
  const folder = process.env.AX_RUNTIMES;
  if (folder && existsSync(join(folder, IN_FOLDER[tool]))) return join(folder, IN_FOLDER[tool]);
  if (tool === 'node22' || tool === 'node26') {
    // a `node` on PATH of that major (e.g. a CI image's), else nothing
    const which = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).stdout.trim();
    return which && nodeMajor(which) === Number(tool.slice(4)) ? which : undefined;
  }
  const which = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  return which || undefined;
}

/** Why a test needing `tools` is skipped, for its title; undefined when every one is there. */
export function missing(...tools: Tool[]): string | undefined {
  const absent = tools.filter((t) => findTool(t) === undefined);
  return absent.length === 0
    ? undefined
    : `${absent.join(', ')} not found: set AX_RUNTIMES to a folder where npm installed them (.ci/run does)`;
}

/** A folder of links named as the commands a recipe calls (`node`, `bun`, `pnpm`, …), for the front of PATH. */
export function toolPath(dir: string, node: string): string {
  const links: Record<string, string | undefined> = {
    node,
    bun: findTool('bun'),
    deno: findTool('deno'),
    pnpm: findTool('pnpm'),
    yarn: findTool('yarn'),
    postject: findTool('postject'),
  };
  const script = Object.entries(links)
    .filter(([, target]) => target !== undefined)
    .map(([name, target]) => `ln -sf ${JSON.stringify(target)} ${JSON.stringify(join(dir, name))}`)
    .join('\n');
  spawnSync('sh', ['-c', `mkdir -p ${JSON.stringify(dir)}\n${script}`]);
  return dir;
}
