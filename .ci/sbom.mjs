// The package's software bill of materials (docs/security.md#what-is-published-inside-ax-ts): every
// npm package whose code esbuild put inside ax-ts's own files (the MCP SDK's server packages and zod
// in dist/chunks/mcp-sdk.js, jsonc-parser in dist/vendor/), as CycloneDX 1.6 JSON at
// dist/sbom.cdx.json. npm audit and Dependabot read package-lock.json, which cannot list code that is
// not installed as a package; scanners that read CycloneDX (and `ax-ts doctor`) read this file.
// The file is deterministic (no timestamp, no serial number): the same inputs give the same bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a bundled input's package lives: the directory up to and including `node_modules/<name>`. */
const PACKAGE_DIR = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//;

/**
 * The packages whose files are among esbuild's inputs, each once per installed copy.
 * @param root the project root the metafile's input paths are relative to
 * @param inputs the input paths, with the dist file each ended up in: [input, published file]
 * @returns name → {dir, files: the published files holding its code}
 */
export function bundledPackages(root, inputs) {
  const found = new Map();
  for (const [input, file] of inputs) {
    const m = PACKAGE_DIR.exec(input);
    if (!m) continue;
    const dir = join(root, m[1]);
    const entry = found.get(dir) ?? { name: m[2], dir, files: new Set() };
    entry.files.add(file);
    found.set(dir, entry);
  }
  return [...found.values()];
}

/** A package URL (https://github.com/package-url/purl-spec) of an npm package. */
const purl = (name, version) => `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;

/** The repository's URL as written in package.json (a string or {url}), without `git+`. */
const repositoryOf = (meta) => {
  const url = typeof meta.repository === 'string' ? meta.repository : meta.repository?.url;
  return url?.replace(/^git\+/, '');
};

/**
 * Writes dist/sbom.cdx.json: ax-ts itself as the BOM's subject, every bundled package as a
 * component (name, group, version, purl, licence, repository, and which published files hold it).
 * @param pkg ax-ts's own package.json
 * @param packages from {@link bundledPackages}
 */
export function writeSbom(dist, pkg, packages) {
  const subject = purl(pkg.name, pkg.version);
  const metas = packages.map((p) => JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8')));
  const refOf = new Map(metas.map((m) => [m.name, purl(m.name, m.version)]));
  const components = packages
    .map((p, i) => {
      const meta = metas[i];
      const slash = meta.name.indexOf('/');
      const repository = repositoryOf(meta);
      return {
        type: 'library',
        'bom-ref': purl(meta.name, meta.version),
        ...(meta.name.startsWith('@')
          ? { group: meta.name.slice(0, slash), name: meta.name.slice(slash + 1) }
          : { name: meta.name }),
        version: meta.version,
        ...(meta.description ? { description: meta.description } : {}),
        scope: 'required',
        purl: purl(meta.name, meta.version),
        ...(meta.license ? { licenses: [{ license: { id: meta.license } }] } : {}),
        ...(repository ? { externalReferences: [{ type: 'vcs', url: repository }] } : {}),
        properties: [...p.files].sort().map((f) => ({ name: 'ax-ts:published-in', value: f })),
      };
    })
    .sort((a, b) => a['bom-ref'].localeCompare(b['bom-ref']));
  const bom = {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      component: {
        type: 'library',
        'bom-ref': subject,
        name: pkg.name,
        version: pkg.version,
        purl: subject,
        ...(pkg.license ? { licenses: [{ license: { id: pkg.license } }] } : {}),
      },
      properties: [
        {
          name: 'ax-ts:scope',
          value:
            'the npm packages bundled inside this package; its declared dependencies are in package.json, where npm audit sees them',
        },
      ],
    },
    components,
    // each bundled package's own dependencies that are bundled too (zod under the SDK's core)
    dependencies: [
      { ref: subject, dependsOn: components.map((c) => c['bom-ref']) },
      ...metas
        .map((m) => ({
          ref: purl(m.name, m.version),
          dependsOn: Object.keys({ ...m.dependencies, ...m.peerDependencies })
            .filter((d) => refOf.has(d))
            .map((d) => refOf.get(d))
            .sort(),
        }))
        .sort((a, b) => a.ref.localeCompare(b.ref)),
    ],
  };
  writeFileSync(join(dist, 'sbom.cdx.json'), `${JSON.stringify(bom, null, 2)}\n`);
  return 'sbom.cdx.json';
}
