/**
 * The schema manifest of a built program (docs/shipping.md#the-schema-manifest): its `__schema`
 * documents written ahead of time, so that a bare `__schema [--as=X]` answers without loading the
 * command tree. Written to `<entry dir>/<name>.schema/` — one `<shape>.out` per shape and an
 * `index.json` that ties them to the build: the hash, the size and mtime of the bundle and of each
 * lazy chunk. The entry serves them only while all of that still holds (answers.ts), so a rebuilt
 * or edited program is never answered from a stale manifest.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AxError } from '../contract/errors.ts';
import { SCHEMA_SHAPES } from '../schema/shapes.ts';
import { MANIFEST_FORMAT } from './answers.ts';
import { factsOf, type BuildFacts } from './facts.ts';

/** What {@link writeSchemaManifest} stored. */
export interface ManifestResult {
  /** The manifest directory. */
  dir: string;
  /** The shapes stored. */
  shapes: string[];
  /** Shapes left to the program because it printed warnings with them. */
  skipped: string[];
  /** Bytes of documents stored. */
  bytes: number;
}

function notBuilt(entry: string, why: string): AxError {
  return new AxError('validation_error', `${entry} is not a program entry written by ax-ts build: ${why}`, {
    fix: 'Pass the entry file of a program built with `ax-ts build` (e.g. dist/bin/mycli.js).',
    context: { reason: 'not_a_bundled_entry', entry },
  });
}

/** The build facts an entry file carries. @throws AxError validation_error. */
async function entryFacts(entry: string): Promise<BuildFacts> {
  let text: string;
  try {
    text = await readFile(entry, 'utf8');
  } catch (e) {
    throw notBuilt(entry, (e as Error).message);
  }
  const facts = factsOf(text);
  if (!facts) throw notBuilt(entry, 'it carries no build facts (const AX_BUILD = {…})');
  return facts;
}

/**
 * Runs the program uncached and unanswered (the real tree); its stdout and stderr. @throws AxError
 * validation_error.
 */
function runProgram(entry: string, args: string[], signal?: AbortSignal): Promise<{ stdout: string; stderr: string }> {
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
          fix: 'Pass the entry file of a built program.',
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

/**
 * Writes the schema manifest of the built program `entry` (see the module comment): runs it once
 * per shape of `shapes` (default: every `__schema --as` shape); a shape printed with warnings on
 * stderr is left to the program, so the warnings are printed every time.
 * @throws AxError validation_error when `entry` is not a built program or fails to answer `__schema`.
 */
export async function writeSchemaManifest(
  entry: string,
  options: { shapes?: readonly string[]; signal?: AbortSignal } = {},
): Promise<ManifestResult> {
  const facts = await entryFacts(entry);
  const binDir = dirname(entry);
  const dir = join(binDir, `${facts.name}.schema`);
  await mkdir(dir, { recursive: true });
  await rm(join(dir, 'index.json'), { force: true }); // no index: nothing is served while the documents change
  const docs: Record<string, number> = {};
  let bytes = 0;
  const skipped: string[] = [];
  for (const shape of options.shapes ?? SCHEMA_SHAPES) {
    const { stdout: text, stderr } = await runProgram(entry, ['__schema', `--as=${shape}`], options.signal);
    if (stderr !== '') {
      skipped.push(shape);
      continue;
    }
    const file = join(dir, `${shape}.out`);
    await writeFile(`${file}.tmp`, text);
    await rename(`${file}.tmp`, file);
    docs[shape] = Buffer.byteLength(text);
    bytes += docs[shape];
  }
  const files: Record<string, { size: number; mtimeMs: number }> = {};
  for (const f of [facts.main, ...facts.chunks]) {
    const st = await stat(join(binDir, f));
    files[f] = { size: st.size, mtimeMs: st.mtimeMs };
  }
  for (const n of await readdir(dir))
    if (n.endsWith('.out') && !(basename(n, '.out') in docs)) await rm(join(dir, n), { force: true });
  const index = { format: MANIFEST_FORMAT, program: facts.name, hash: facts.hash, version: facts.version, files, docs };
  await writeFile(join(dir, 'index.json.tmp'), `${JSON.stringify(index, null, 2)}\n`);
  await rename(join(dir, 'index.json.tmp'), join(dir, 'index.json'));
  return { dir, shapes: Object.keys(docs), skipped, bytes };
}
