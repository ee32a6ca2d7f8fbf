/**
 * `ax-ts schema-manifest <entry>`: writes a program's `__schema` documents ahead of time, so that
 * its `__schema` answers without loading the command tree (issue 14). The entry must be a program
 * bundled as this repository's build does (.ci/bundle.mjs): its entry file carries the build's
 * facts (a content hash of the bundle and of its lazy chunks). The documents go to
 * `<entry dir>/<name>.schema/` — one `<shape>.out` per shape and an `index.json` that ties them to
 * that build: the hash, the size and mtime of the bundle and of each lazy chunk, and the version
 * the documents carry. The entry serves them only while all of that still holds, so a rebuilt,
 * edited or re-versioned program is never answered from a stale manifest.
 */
import { spawn } from 'node:child_process';
import { readFile, rename, rm, stat, writeFile, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AxError, Command, isPlaceholderVersion, type RunContext } from '../../lib/index.ts';
import { SCHEMA_SHAPES } from '../../lib/schema/index.ts';

interface EntryFacts {
  main: string;
  name: string;
  hash: string;
  chunks?: string[];
}

function notBundled(entry: string, why: string): AxError {
  return new AxError('validation_error', `${entry} is not a program entry written by the ax-ts bundler: ${why}`, {
    fix: 'Pass the entry file of a bundled program (e.g. dist/bin/tasks.js), built by .ci/bundle.mjs.',
    context: { reason: 'not_a_bundled_entry', entry },
  });
}

/** The build facts an entry file carries (`const CONFIG = {…};`). @throws AxError validation_error. */
async function factsOf(entry: string): Promise<EntryFacts> {
  let text: string;
  try {
    text = await readFile(entry, 'utf8');
  } catch (e) {
    throw notBundled(entry, (e as Error).message);
  }
  const m = /^const CONFIG = (\{.*\});$/m.exec(text);
  if (!m) throw notBundled(entry, 'it has no build facts (const CONFIG = {…})');
  const facts = JSON.parse(m[1]!) as EntryFacts;
  if (typeof facts.main !== 'string' || typeof facts.hash !== 'string' || typeof facts.name !== 'string')
    throw notBundled(entry, 'its build facts are incomplete');
  return facts;
}

/** Runs the program uncached and unanswered (the real tree); its stdout and stderr, or a validation_error. */
function runProgram(entry: string, args: string[], signal: AbortSignal): Promise<{ stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const env: NodeJS.ProcessEnv = { ...process.env, AX_PRECOMPUTED: '0', AX_CODE_CACHE: '0' };
    delete env.AGENT_MODE;
    const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, signal });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', (e) =>
      rej(
        new AxError('validation_error', `cannot run ${entry}: ${e.message}`, {
          fix: 'Pass the entry file of a bundled program.',
          context: { reason: 'unrunnable_entry', entry },
        }),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return res({ stdout: Buffer.concat(out).toString('utf8'), stderr: err });
      rej(
        new AxError(
          'validation_error',
          `${entry} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop() ?? ''}`,
          {
            fix: 'Check that the entry is a program built with ax-ts (it must answer `__schema`).',
            context: { reason: 'schema_failed', entry, exit_code: code },
          },
        ),
      );
    });
  });
}

/** The version a program resolves from package.json above `dir` (as resolveVersion walks), if any. */
async function packageVersion(dir: string): Promise<string | undefined> {
  for (let d = dir, i = 0; i < 64; i++) {
    try {
      const v = (JSON.parse(await readFile(join(d, 'package.json'), 'utf8')) as { version?: unknown }).version;
      if (typeof v === 'string' && !isPlaceholderVersion(v)) return v;
    } catch {
      /* go on up */
    }
    if (dirname(d) === d) break;
    d = dirname(d);
  }
  return undefined;
}

/** The `schema-manifest` command. */
export function schemaManifestCommand(): Command {
  return new Command({
    use: 'schema-manifest <entry>',
    short: "Write a bundled program's __schema documents ahead of time, so __schema answers without loading the tree",
    long:
      `Runs the bundled program <entry> (e.g. dist/bin/tasks.js) once per shape (__schema --as=${SCHEMA_SHAPES.join(', ')}) and writes\n` +
      'the documents to <entry dir>/<name>.schema/ with an index.json tying them to this build (a shape printed with warnings on\n' +
      'stderr is left to the program). Afterwards a bare\n' +
      '`<program> __schema [--as=<shape>]` prints the stored document, byte for byte what the program prints, as long as the\n' +
      'bundle, its lazy chunks and the version in package.json are unchanged; otherwise the program answers itself.\n' +
      'Run it again after every build (it is part of `npm run build` for the demo). Only for programs whose tree does not depend on the environment.',
    example: 'ax-ts schema-manifest dist/bin/tasks.js',
    effects: 'idempotent',
    output: {
      cardinality: 'single',
      schema: {
        type: 'object',
        properties: {
          dir: { type: 'string', description: 'the manifest directory' },
          shapes: { type: 'array', items: { type: 'string' }, description: 'the shapes stored' },
          skipped: {
            type: 'array',
            items: { type: 'string' },
            description: 'shapes left to the program because it printed warnings with them',
          },
          bytes: { type: 'integer', description: 'bytes of documents stored' },
        },
        required: ['dir', 'shapes', 'skipped', 'bytes'],
      },
    },
    run: async (ctx: RunContext) => {
      const entry = resolve(String(ctx.args.entry));
      const facts = await factsOf(entry);
      const binDir = dirname(entry);
      const dir = join(binDir, `${facts.name}.schema`);
      await mkdir(dir, { recursive: true });
      await rm(join(dir, 'index.json'), { force: true }); // no index: nothing is served while the documents change
      const docs: Record<string, number> = {};
      let bytes = 0;
      const skipped: string[] = [];
      for (const shape of SCHEMA_SHAPES) {
        const { stdout: text, stderr } = await runProgram(entry, ['__schema', `--as=${shape}`], ctx.signal);
        if (stderr !== '') {
          // a document that comes with warnings (e.g. an exclusion that removes no tool) is left to
          // the program, so that the warnings are printed every time
          skipped.push(shape);
          continue;
        }
        const file = join(dir, `${shape}.out`);
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
        docs[shape] = Buffer.byteLength(text);
        bytes += docs[shape];
      }
      const version = (
        JSON.parse((await runProgram(entry, ['--version', '--format', 'json'], ctx.signal)).stdout) as {
          data: { version: string };
        }
      ).data.version;
      const files: Record<string, { size: number; mtimeMs: number }> = {};
      for (const f of [facts.main, ...(facts.chunks ?? [])]) {
        const st = await stat(join(binDir, f));
        files[f] = { size: st.size, mtimeMs: st.mtimeMs };
      }
      for (const n of await readdir(dir))
        if (n.endsWith('.out') && !(basename(n, '.out') in docs)) await rm(join(dir, n), { force: true });
      const index = {
        format: 'ax-ts/schema-manifest/1',
        program: facts.name,
        hash: facts.hash,
        files,
        version,
        versionFromPackage: (await packageVersion(binDir)) === version,
        docs,
      };
      await writeFile(join(dir, 'index.json.tmp'), `${JSON.stringify(index, null, 2)}\n`);
      await rename(join(dir, 'index.json.tmp'), join(dir, 'index.json'));
      return { dir, shapes: Object.keys(docs), skipped, bytes };
    },
  });
}
