/**
 * `__schema --as=skill`: a SKILL.md (Agent Skills format, agentskills.io) for the program: what it is
 * for, the contract (modes, envelope, error line, exit codes), one line and the first example per
 * command, and a pointer to `__schema` for the full options. Also the AGENTS.md written beside it.
 */
import type { Command } from '../tree/command.ts';
import { invocableCommands } from './clispec.ts';
import { injectedInForce } from '../tree/flagset.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { BUILTIN_ANNOTATION, rootTakesPositionals } from '../tree/marks.ts';
import { ERROR_LINE_SCHEMA, keyOutline, SUCCESS_LINE_SCHEMA } from '../contract/line-schemas.ts';

const SUCCESS_META = SUCCESS_LINE_SCHEMA.properties.meta;
const ERROR = ERROR_LINE_SCHEMA.properties.error;

/**
 * Agent Skills limits: name 1–64 of [a-z0-9-] (no leading/trailing/double hyphen); description
 * 1–1024 characters.
 */
export const SKILL_LIMITS = { name: 64, description: 1024 } as const;

/** A valid skill name from a program name (`My_Tool` → `my-tool`). */
export function skillName(program: string): string {
  const n = program
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, SKILL_LIMITS.name)
    .replace(/-$/, '');
  return n || 'cli';
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The skill description: what the program does and when to use it, within 1024 characters. */
export function skillDescription(root: Command): string {
  const what = oneLine(root.short || root.long.split('\n')[0] || `the ${root.name} command-line program`).replace(
    /\.$/,
    '',
  );
  const cmds = invocableCommands(root).map((c) => c.pathNames().slice(1).join(' ') || root.name);
  let d =
    `${what}. Use when a task needs the ${root.name} CLI (${cmds.join(', ')}); it prints JSON ` +
    `envelopes with --format json and one JSON error line with a stable exit code on failure.`;
  if (d.length > SKILL_LIMITS.description) d = `${d.slice(0, SKILL_LIMITS.description - 1)}…`;
  return d;
}

function yamlString(s: string): string {
  return JSON.stringify(s); // a JSON string is a valid YAML double-quoted scalar
}

/**
 * The SKILL.md text. `commands` replaces the list of commands (the discovery summary's, for a tree
 * over the budget: docs/schema.md#budgets-and-summaries); `within` keeps the commands of one subtree.
 */
export function skillMarkdown(
  root: Command,
  version: string,
  options: { within?: Command; commands?: string[] } = {},
): string {
  const p = root.name;
  const commands = invocableCommands(root, options.within); // one walk, for the dry-run line and the list
  const out: string[] = [];
  out.push('---', `name: ${skillName(p)}`, `description: ${yamlString(skillDescription(root))}`, '---', '');
  out.push(`# ${p} ${version}`, '');
  const about = (root.long || root.short).trim();
  if (about) out.push(about, '');
  out.push('## Contract', '');
  out.push(
    `- Always pass \`--format json\` (or set \`AGENT_MODE=1\`). Mode detection: ` +
      `--format flag > AGENT_MODE env > TTY detection; piped output is JSON.`,
  );
  out.push(
    `- Success: exit 0; stdout is one line ` +
      `\`{"data":<payload>,"meta":{${keyOutline(SUCCESS_META, SUCCESS_META.required)}}}\`; ` +
      `streams print one such line per item (NDJSON).`,
  );
  out.push(
    `- Failure: non-zero exit; stdout is empty; the last stderr line is ` +
      `\`{"error":{${keyOutline(ERROR, ['kind', 'message', 'exit_code', 'retryable', 'actionable_fix', 'suggestions', 'context'])}},"meta":{...}}\`. Read \`actionable_fix\` before retrying.`,
  );
  // true of every command, or said of those that have it (a command may declare none, or shadow it)
  const dryRun = commands.every((c) => injectedInForce(c, 'dry-run'))
    ? '`--dry-run` shows'
    : '`--dry-run`, on the commands whose help lists it, shows';
  out.push(
    `- ${dryRun} what would change without changing it; \`--idempotency-key <key>\` makes a retried write safe.`,
  );
  out.push(
    `- \`--args-json '<object>'\` passes all arguments as one JSON object shaped like the command's MCP inputSchema.`,
  );
  out.push(
    `- A stop exits 2 with \`next\` in the error object (confirmation_required, input_required, ` +
      `action_required): the commands to run next. Pass \`--yes\` only with the user's consent.`,
  );
  out.push(
    `- \`${p} <command> --explain <flag>\` says where a flag's value came from (flag > env > config > default).`,
  );
  // said once, and only where a command pages (docs/contract.md#paging---limit---cursor)
  const paged = commands.filter((c) => c.output?.paging).map((c) => `\`${c.commandPath()}\``);
  if (paged.length)
    out.push(
      `- ${paged.join(', ')} answer one page (\`--limit <n>\`): \`meta.pagination.has_more\` says more exist, ` +
        `and \`meta.next[0]\` is the command that fetches the next page (\`--cursor <next_cursor>\`).`,
    );
  out.push('', '| exit code | kinds |', '|---|---|');
  const byCode = new Map<number, string[]>();
  for (const e of errorCatalogue()) byCode.set(e.exitCode, [...(byCode.get(e.exitCode) ?? []), e.kind]);
  out.push('| 0 | success |');
  for (const [code, kinds] of [...byCode].sort((a, b) => a[0] - b[0])) out.push(`| ${code} | ${kinds.join(', ')} |`);
  out.push('', '## Commands', '');
  if (options.commands) out.push(...options.commands);
  else
    for (const c of commands) {
      const ex = c.example
        .split('\n')
        .map((l) => l.trim())
        .find(Boolean);
      const line = oneLine(c.short || c.long.split('\n')[0] || '').replace(/([^.!?])$/, '$1.');
      out.push(
        `- \`${c.commandPath()}${c.args.length ? ' ' + c.use.split(/\s+/).slice(1).join(' ') : ''}\` ` +
          `— ${line}${ex ? ` Example: \`${ex}\`` : ''}`,
      );
    }
  out.push('', '## Full reference', '');
  out.push(
    `Run \`${p} __schema\` for every command, flag, argument and error kind as JSON (\`${p} ` +
      `__schema <command>\` for one), \`${p} __schema --as=mcp\` for the MCP tool schemas, or \`${p} ` +
      `<command> --help\`. \`${p} __schema --as=agents\` prints the AGENTS.md for this program.`,
  );
  return `${out.join('\n')}\n`;
}

/** What AGENTS.md says about installing and verifying the program (docs/skill.md#install-and-verify). */
export interface InstallFacts {
  /** The program's version: the install command pins it when it is a release (`1.2.3`, `1.2.3-rc.1`). */
  version: string;
  /** The npm package the root declares (`package`); without one no install command is written. */
  package?: string;
  /** Whether `--version` is ax-ts's own flag (an author's flag of that name may answer anything). */
  versionFlag: boolean;
  /** Whether `doctor` is ax-ts's built-in (docs/contract.md#doctor). */
  doctor: boolean;
}

/** The {@link InstallFacts} of a tree whose built-ins are installed, at `version`. */
export function installFacts(root: Command, version: string): InstallFacts {
  return {
    version,
    ...(root.package !== undefined ? { package: root.package } : {}),
    versionFlag: injectedInForce(root, 'version'),
    doctor: hasDoctor(root),
  };
}

/**
 * Whether the run of `root` has ax-ts's `doctor` (docs/contract.md#doctor): the built-in once
 * installed, else where it will be — no `doctor` of the author's, and no positionals at the root
 * (every run that reads the tree gives the root at least `__schema` below it).
 */
function hasDoctor(root: Command): boolean {
  const own = root.findChild('doctor');
  return own ? own.annotations[BUILTIN_ANNOTATION] === 'true' : !rootTakesPositionals(root);
}

const RELEASE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The "Install and verify" lines of AGENTS.md: every command in them runs as written. */
function installSection(p: string, f: InstallFacts): string[] {
  const lines: string[] = [];
  if (f.package !== undefined) {
    const spec = RELEASE.test(f.version) ? `${f.package}@${f.version}` : f.package;
    lines.push(`- Install with \`npm install --global ${spec}\`: it asks nothing, and run again it exits 0 again.`);
  }
  if (f.versionFlag)
    lines.push(
      `- \`${p} --version --format json\` exits 0 with \`{"data":{"name":"${p}","version":…}}\`: the program runs.`,
    );
  if (f.doctor)
    lines.push(
      `- \`${p} doctor --format json\` exits 0 with a report of the runtime, the state directory and the store; ` +
        `\`data.ok\` is false when something needs fixing, and \`data.problems\` says what to do.`,
    );
  return ['', '## Install and verify', '', ...lines];
}

/**
 * The AGENTS.md text for coding agents (written beside SKILL.md by `ax-ts skill`, printed by
 * `__schema --as=agents`). @param program the program's name. @param install what its "Install and
 * verify" section says ({@link installFacts}); without it the text has no such section.
 */
export function agentsMarkdown(program: string, install?: InstallFacts): string {
  const p = program;
  return [
    `# Using ${p} from an agent`,
    '',
    `This program follows the ax-ts machine contract. Its SKILL.md (beside this ` +
      `file, or \`${p} __schema --as=skill\`) lists the commands and the contract.`,
    '',
    `- Run commands with \`--format json\`; parse stdout as JSON; on ` +
      `a non-zero exit read the last stderr line as the error object.`,
    `- Discover with \`${p} __schema\` (a summary when the tree is large: ` +
      `drill in with \`${p} __schema <command>\`); never guess flags.`,
    `- A stop exits 2 with \`next\` in the error object: the ` +
      `commands to run next (\`--yes\` only with the user's consent).`,
    `- \`${p} <command> --explain <flag>\` says where a flag's value came from (flag > env > config > default).`,
    `- \`${p} mcp-server\` (if available) serves the same commands as MCP tools.`,
    ...(install ? installSection(p, install) : []),
    '',
    `Generated by ax-ts from the command tree; regenerate with ` +
      `\`npx ax-ts skill <entry>\` rather than editing by hand.`,
    '',
  ].join('\n');
}
