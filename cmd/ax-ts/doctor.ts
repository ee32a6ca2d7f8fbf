/**
 * `ax-ts doctor`: what this installation of ax-ts is and holds — its version and where it is, the
 * runtime against the floor in its `engines`, and every package bundled inside it, read from the
 * package's own bill of materials (dist/sbom.cdx.json: docs/security.md#what-is-published-inside-ax-ts).
 * npm audit cannot see bundled code; this is how a user checks it against an advisory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, defineError } from '../../lib/index.ts';

/** The bill of materials is missing: a checkout of ax-ts that was not built. Exit 1. */
export const notBuilt = defineError({
  kind: 'not_built',
  exitCode: 1,
  description:
    'ax-ts doctor ran from a checkout of ax-ts that was not ' +
    'built: its bill of materials (dist/sbom.cdx.json) is missing.',
});

/** One bundled package, as the bill of materials lists it. */
interface Bundled {
  name: string;
  version: string;
  license?: string;
  purl: string;
  published_in: string[];
}

/** What `doctor` reports. */
interface Report {
  ax_ts: { version: string; path: string };
  runtime: { name: string; version: string; floor: string; ok: boolean };
  sbom: string;
  bundled: Bundled[];
}

const SCHEMA = {
  type: 'object',
  properties: {
    ax_ts: {
      type: 'object',
      properties: { version: { type: 'string' }, path: { type: 'string', description: 'the package directory' } },
      required: ['version', 'path'],
    },
    runtime: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        version: { type: 'string' },
        floor: { type: 'string', description: 'package.json engines.node' },
        ok: { type: 'boolean', description: 'the runtime meets the floor' },
      },
      required: ['name', 'version', 'floor', 'ok'],
    },
    sbom: { type: 'string', description: 'path of the CycloneDX bill of materials read' },
    bundled: {
      type: 'array',
      description: 'every package whose code is published inside ax-ts',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          version: { type: 'string' },
          license: { type: 'string' },
          purl: { type: 'string' },
          published_in: { type: 'array', items: { type: 'string' } },
        },
        required: ['name', 'version', 'purl', 'published_in'],
      },
    },
  },
  required: ['ax_ts', 'runtime', 'sbom', 'bundled'],
};

/** The directory of the `ax-ts` package this module belongs to (walking up from it). */
function packageRoot(): { dir: string; meta: { version: string; engines?: { node?: string } } } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const meta = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (meta.name === 'ax-ts') return { dir, meta };
    }
    const up = dirname(dir);
    if (up === dir) throw notBuilt('cannot find the ax-ts package this tool belongs to');
    dir = up;
  }
}

/** `major.minor.patch` of a version string, missing parts 0. */
const triple = (v: string): number[] =>
  (v.replace(/^v/, '').split('.').map(Number) as number[]).concat(0, 0, 0).slice(0, 3);

/** Whether `version` meets a `>=x.y.z` floor (the only form ax-ts's engines uses). */
function meets(version: string, floor: string): boolean {
  const m = /^>=\s*(\S+)$/.exec(floor.trim());
  if (!m) return true;
  const [a, b] = [triple(version), triple(m[1]!)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

interface CycloneDxComponent {
  group?: string;
  name: string;
  version: string;
  purl: string;
  licenses?: { license?: { id?: string } }[];
  properties?: { name: string; value: string }[];
}

/** Reads the bill of materials. @throws AxError not_built when the package was not built. */
function readBundled(sbom: string): Bundled[] {
  if (!existsSync(sbom))
    throw notBuilt(`no bill of materials at ${sbom}`, {
      fix: 'In a checkout of ax-ts, run `npm run build` first; an installed ax-ts always has it.',
      context: { path: sbom },
    });
  const bom = JSON.parse(readFileSync(sbom, 'utf8')) as { components?: CycloneDxComponent[] };
  return (bom.components ?? []).map((c) => {
    const license = c.licenses?.[0]?.license?.id;
    return {
      name: c.group ? `${c.group}/${c.name}` : c.name,
      version: c.version,
      ...(license ? { license } : {}),
      purl: c.purl,
      published_in: (c.properties ?? []).filter((p) => p.name === 'ax-ts:published-in').map((p) => p.value),
    };
  });
}

function render(r: Report): string {
  const width = Math.max(...r.bundled.map((b) => b.name.length), 4);
  return [
    `ax-ts ${r.ax_ts.version} (${r.ax_ts.path})`,
    `${r.runtime.name} ${r.runtime.version}: ${r.runtime.ok ? 'meets' : 'BELOW'} the floor ${r.runtime.floor}`,
    '',
    `Bundled inside ax-ts (${r.sbom}):`,
    ...r.bundled.map(
      (b) =>
        `  ${b.name.padEnd(width)}  ${b.version.padEnd(8)}  ${(b.license ?? '').padEnd(10)}  ${b.published_in.join(', ')}`,
    ),
    '',
  ].join('\n');
}

/** The `doctor` command of the ax-ts tool. */
export function doctorCommand(): Command {
  return new Command({
    use: 'doctor',
    short: 'Show this ax-ts: its version, the runtime against its floor, and the packages bundled inside it',
    long:
      'Reports the installed ax-ts (version and directory), the ' +
      'runtime and whether it meets engines.node, and every\n' +
      'package whose code is published inside ax-ts, from the ' +
      "package's CycloneDX bill of materials (dist/sbom.cdx.json).\n" +
      'npm audit cannot see bundled code: compare these versions with an advisory, or feed the file to your scanner.',
    example: 'ax-ts doctor\nax-ts doctor --format json',
    effects: 'read_only',
    output: { schema: SCHEMA, cardinality: 'single' },
    run: () => {
      const { dir, meta } = packageRoot();
      const floor = meta.engines?.node ?? '*';
      const sbom = join(dir, 'dist', 'sbom.cdx.json');
      const report: Report = {
        ax_ts: { version: meta.version, path: dir },
        runtime: { name: 'node', version: process.versions.node, floor, ok: meets(process.versions.node, floor) },
        sbom,
        bundled: readBundled(sbom),
      };
      return report;
    },
    render: (data) => render(data as Report),
  });
}
