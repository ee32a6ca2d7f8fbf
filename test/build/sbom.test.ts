/**
 * The bill of materials (dist/sbom.cdx.json, docs/security.md#what-is-published-inside-ax-ts): it
 * lists exactly the packages whose code is inside the published files — checked against esbuild's own
 * `// node_modules/<package>/…` markers in every built file, a source independent of how the build
 * wrote the BOM — each at the version installed here (the dev dependency that was bundled), and the
 * package publishes it; `ax-ts doctor` reports the same list through the built tool.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/spawn.ts';

type Json = Record<string, any>;
const DIST = join(REPO, 'dist');
const MARKER = /^\/\/ node_modules\/((?:@[^/]+\/)?[^/\s]+)\//gm;

/** Every .js/.cjs file under dist/ except the demo's own build (dist/bin is not published). */
function builtFiles(dir = DIST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(DIST, 'bin') ? [] : builtFiles(path);
    return /\.c?js$/.test(e.name) ? [path] : [];
  });
}

const nameOf = (c: Json): string => (c.group ? `${c.group}/${c.name}` : c.name);

describe('dist/sbom.cdx.json', () => {
  let bom: Json;
  beforeAll(() => {
    bom = JSON.parse(readFileSync(join(DIST, 'sbom.cdx.json'), 'utf8')) as Json;
  });

  it('is a CycloneDX 1.6 document about this package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Json;
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    expect(bom.metadata.component).toMatchObject({
      name: 'ax-ts',
      version: pkg.version,
      purl: `pkg:npm/ax-ts@${pkg.version}`,
    });
    expect(pkg.files).toContain('dist/sbom.cdx.json');
  });

  it('lists exactly the packages whose code the built files hold, each in the files that hold it', () => {
    const holding = new Map<string, Set<string>>();
    for (const file of builtFiles())
      for (const m of readFileSync(file, 'utf8').matchAll(MARKER)) {
        const set = holding.get(m[1]!) ?? new Set<string>();
        set.add(file.slice(DIST.length + 1));
        holding.set(m[1]!, set);
      }
    expect(holding.size).toBeGreaterThan(0);
    const listed = new Map<string, string[]>(
      (bom.components as Json[]).map((c) => [
        nameOf(c),
        (c.properties as Json[]).filter((p) => p.name === 'ax-ts:published-in').map((p) => p.value as string),
      ]),
    );
    expect([...listed.keys()].sort()).toEqual([...holding.keys()].sort());
    for (const [name, files] of holding) expect(listed.get(name)!.sort(), name).toEqual([...files].sort());
  });

  it('gives each package the version installed here, the copy that was bundled', () => {
    const sdk = join(REPO, 'node_modules/@modelcontextprotocol');
    for (const c of bom.components as Json[]) {
      const name = nameOf(c);
      // hoisted, or else the copy the SDK's packages bring (where esbuild found it)
      const file = [
        join(REPO, 'node_modules', name),
        ...readdirSync(sdk).map((d) => join(sdk, d, 'node_modules', name)),
      ]
        .map((d) => join(d, 'package.json'))
        .find((f) => existsSync(f));
      expect(file, `${name} is installed`).toBeDefined();
      const installed = JSON.parse(readFileSync(file!, 'utf8')) as Json;
      expect(c.version, name).toBe(installed.version);
      expect(c.purl).toBe(`pkg:npm/${name.replace(/^@/, '%40')}@${installed.version}`);
      if (installed.license) expect(c.licenses[0].license.id, name).toBe(installed.license);
    }
  });

  it('ax-ts doctor reports the same packages and the runtime against the floor', () => {
    const r = spawnSync(process.execPath, [join(DIST, 'cmd/ax-ts/main.js'), 'doctor', '--format', 'json'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const data = (JSON.parse(r.stdout) as Json).data as Json;
    expect(data.runtime).toEqual({ name: 'node', version: process.versions.node, floor: '>=22.12', ok: true });
    expect((data.bundled as Json[]).map((b) => `${b.name}@${b.version}`)).toEqual(
      (bom.components as Json[]).map((c) => `${nameOf(c)}@${c.version}`),
    );
  });
});
