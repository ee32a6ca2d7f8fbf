/**
 * The program's skill over MCP: the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640;
 * modelcontextprotocol/ext-skills specification/stable/skills.mdx) and, over HTTP, the Agent Skills
 * well-known index (cloudflare/agent-skills-discovery-rfc 0.2.0). One skill, named after the program:
 * its SKILL.md and the AGENTS.md beside it, the very texts `__schema --as=skill` and
 * `__schema --as=agents` print (the same renders of the same tree, so they cannot drift), served as
 * resources under `skill://<name>/`, listed by `skills/list` and `skills/get` with each file's
 * SHA-256 digest and size (docs/mcp-server.md#skills).
 */
import { createHash } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/server';
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { shapeRender } from '../../lib/schema/documents.ts';
import { skillDescription, skillName } from '../../lib/schema/skill.ts';
import { rpcError } from '../base/eras.ts';
import type { McpModel } from '../call/model.ts';
import type { Era } from '../call/era.ts';

/** The extension's identifier, in the server's `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** One file of the skill. */
export interface SkillFile {
  /** Its path in the skill directory (`SKILL.md`, `AGENTS.md`). */
  path: string;
  /** Its resource URI, `skill://<name>/<path>`. */
  uri: string;
  text: string;
  /** `sha256:<64 lowercase hex>` of its UTF-8 bytes. */
  digest: string;
  /** Its length in bytes. */
  size: number;
}

/** The program's skill, as served. */
export interface ServedSkill {
  /** The skill's name: the program's name as an Agent Skills name (`__schema --as=skill`'s). */
  name: string;
  /** The URI of its SKILL.md. */
  uri: string;
  /** SKILL.md's frontmatter: what the text starts with, as a JSON object. */
  frontmatter: { name: string; description: string };
  /** SKILL.md first, then AGENTS.md. */
  files: SkillFile[];
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * The skill of the served subtree (the mount's commands, as `__schema --as=skill <mount>` renders
 * them), computed once per model. @param version the program's version, as SKILL.md's title says it.
 */
export function servedSkill(model: McpModel & { skill?: ServedSkill }, version: string): ServedSkill {
  if (model.skill) return model.skill;
  const { root, mount } = model;
  const skill = shapeRender('skill');
  const agents = shapeRender('agents');
  const texts: [string, string][] = [
    ['SKILL.md', mount === root ? skill.whole(root, version) : skill.within(root, mount, version)],
    ['AGENTS.md', agents.whole(root, version)],
  ];
  const name = skillName(root.name);
  const files = texts.map(([path, text]) => {
    const bytes = Buffer.from(text, 'utf8');
    return { path, uri: `skill://${name}/${path}`, text, digest: `sha256:${sha256(bytes)}`, size: bytes.length };
  });
  model.skill = {
    name,
    uri: files[0]!.uri,
    frontmatter: { name, description: skillDescription(root) },
    files,
  };
  return model.skill;
}

/** A `Skill` entry of `skills/list` and `skills/get`. */
function entry(s: ServedSkill) {
  return {
    uri: s.uri,
    frontmatter: s.frontmatter,
    resources: s.files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
  };
}

/** The skill's files as `resources/list` entries. */
export function skillResourceEntries(s: ServedSkill): Record<string, unknown>[] {
  return s.files.map((f) => ({
    uri: f.uri,
    name: f.path === 'SKILL.md' ? s.name : `${s.name}-agents`,
    title: f.path,
    description:
      f.path === 'SKILL.md'
        ? s.frontmatter.description
        : `How coding agents use ${s.name} (the AGENTS.md of its skill)`,
    mimeType: 'text/markdown',
    size: f.size,
  }));
}

/** The `resources/read` contents of a skill file's URI, undefined when `uri` is none of them. */
export function readSkillFile(
  s: ServedSkill,
  uri: string,
): { uri: string; mimeType: string; text: string } | undefined {
  const f = s.files.find((x) => x.uri === uri);
  return f && { uri: f.uri, mimeType: 'text/markdown', text: f.text };
}

const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const LIST_PARAMS: StandardSchemaV1<unknown, { cursor?: string }> = {
  '~standard': {
    version: 1,
    vendor: 'ax-ts',
    validate: (v) => {
      const p = object(v) ? v : {};
      if (p.cursor !== undefined && typeof p.cursor !== 'string')
        return { issues: [{ message: 'Invalid input: expected string', path: ['params', 'cursor'] }] };
      return { value: p as { cursor?: string } };
    },
  },
};

const GET_PARAMS: StandardSchemaV1<unknown, { uri: string }> = {
  '~standard': {
    version: 1,
    vendor: 'ax-ts',
    validate: (v) =>
      object(v) && typeof v.uri === 'string'
        ? { value: v as { uri: string } }
        : { issues: [{ message: 'Invalid input: expected string', path: ['params', 'uri'] }] },
  },
};

/**
 * Registers `skills/list` and `skills/get` on `server` (each wrapped by `own`). The listing is one
 * page: a cursor is refused, as no listing hands one out.
 */
export function registerSkills(
  server: Server,
  era: Era,
  skill: () => ServedSkill,
  own: <A extends unknown[], R>(h: (...args: A) => Promise<R>) => (...args: A) => Promise<R>,
): void {
  server.setRequestHandler(
    'skills/list' as never,
    { params: LIST_PARAMS } as never,
    own(async (params: { cursor?: string }) => {
      if (params.cursor !== undefined)
        throw rpcError(-32602, `Invalid cursor ${JSON.stringify(params.cursor)}: skills/list has one page`);
      return era.extensionResult({ skills: [entry(skill())] });
    }) as never,
  );
  server.setRequestHandler(
    'skills/get' as never,
    { params: GET_PARAMS } as never,
    own(async (params: { uri: string }) => {
      const s = skill();
      if (params.uri !== s.uri)
        throw rpcError(-32602, `Not a skill this server serves: ${params.uri} (its skill is ${s.uri})`, {
          uri: params.uri,
        });
      return era.extensionResult({ skill: entry(s) });
    }) as never,
  );
}

/**
 * The Agent Skills well-known index (`/.well-known/agent-skills/index.json`, format 0.2.0): the
 * skill's name, description, per-file digests and the skill-level digest over them.
 */
export function wellKnownIndex(s: ServedSkill): Record<string, unknown> {
  const files = s.files.map((f) => ({ path: f.path, digest: f.digest }));
  const manifest = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.path}\0${f.digest.slice('sha256:'.length)}\n`)
    .join('');
  return {
    version: '0.2.0',
    skills: [{ name: s.name, description: s.frontmatter.description, digest: `sha256:${sha256(manifest)}`, files }],
  };
}
