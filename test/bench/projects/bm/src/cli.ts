// bm: bookmarks in a JSON file. The user-shaped reference CLI of the benchmark (test/bench/run.mjs)
// and of the shipping tests (test/build): written from docs/getting-started.md with the public API
// only — a group, a persistent flag, typed positionals, dry runs, a prompt, a resource, the logger,
// a JSONC config file and the MCP server.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { Command, declarePrompt, declareResource, defineError, resolveVersion, type RunContext } from 'ax-ts';
import { readConfig } from 'ax-ts/config';
import { mountMcpServer } from 'ax-ts/mcp';

interface Link {
  id: number;
  url: string;
  title: string;
  tags: string[];
}

const linkNotFound = defineError({ kind: 'link_not_found', exitCode: 5, description: 'No link has the given id.' });

const linkSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    title: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'url', 'title', 'tags'],
};

/** The store: --store, else $BM_STORE, else ./bm.json. */
function storeFile(ctx: RunContext): string {
  return (ctx.flags.store as string | undefined) ?? ctx.env.BM_STORE ?? 'bm.json';
}

async function load(file: string): Promise<Link[]> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Link[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

async function save(file: string, links: Link[]): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(links));
  await rename(`${file}.tmp`, file);
}

/** Defaults from the JSONC file $BM_CONFIG, when set: `{ "limit": 10 }`. */
async function defaults(ctx: RunContext): Promise<{ limit?: number }> {
  const file = ctx.env.BM_CONFIG;
  return file ? ((await readConfig(file)) as { limit?: number }) : {};
}

function addCommand(): Command {
  return new Command({
    use: 'add <url> [title]',
    short: 'Save a link',
    args: [
      { name: 'url', description: 'the address' },
      { name: 'title', required: false, description: 'a title (default: the address)' },
    ],
    flags: { tag: { type: 'stringArray', short: 't', usage: 'tag (repeat for several)' } },
    effects: 'non_idempotent',
    dryRun: true,
    output: { schema: linkSchema },
    run: async (ctx) => {
      const file = storeFile(ctx);
      const links = await load(file);
      const link: Link = {
        id: (links.at(-1)?.id ?? 0) + 1,
        url: ctx.args.url,
        title: ctx.args.title ?? ctx.args.url,
        tags: ctx.flags.tag,
      };
      ctx.logger.info({ id: link.id }, 'saving a link');
      await ctx.perform(`save link ${link.id} to ${file}`, () => save(file, [...links, link]));
      return link;
    },
  });
}

function listCommand(): Command {
  return new Command({
    use: 'list',
    aliases: ['ls'],
    short: 'List links',
    flags: {
      tag: { type: 'string', usage: 'only links with this tag' },
      limit: { type: 'int', default: 20, usage: 'at most this many links (or the config file says)' },
    },
    effects: 'read_only',
    output: { schema: { type: 'array', items: linkSchema } },
    run: async (ctx) => {
      const limit = ctx.changed('limit') ? ctx.flags.limit : ((await defaults(ctx)).limit ?? ctx.flags.limit);
      const links = await load(storeFile(ctx));
      return links.filter((l) => ctx.flags.tag === undefined || l.tags.includes(ctx.flags.tag)).slice(0, limit);
    },
  });
}

function rmCommand(): Command {
  return new Command({
    use: 'rm <id>',
    short: 'Delete a link',
    args: [{ name: 'id', type: 'int', description: 'link id' }],
    flags: { yes: { type: 'bool', short: 'y', usage: 'delete without asking' } },
    confirmationFlag: 'yes',
    effects: 'non_idempotent',
    dryRun: true,
    output: { schema: linkSchema },
    run: async (ctx) => {
      const file = storeFile(ctx);
      const links = await load(file);
      const link = links.find((l) => l.id === ctx.args.id);
      if (!link)
        throw linkNotFound(`no link with id ${ctx.args.id}`, {
          fix: "Run 'bm link list' to see the ids.",
          context: { id: ctx.args.id },
        });
      if (!ctx.guard(`delete link ${link.id}`)) return link; // --dry-run stops here
      await ctx.confirm(`Delete link ${link.id}? [y/N]`, 'yes');
      await save(
        file,
        links.filter((l) => l !== link),
      );
      return link;
    },
  });
}

/** The whole tree. */
export function buildCli(): Command {
  const add = addCommand();
  const root = new Command({
    use: 'bm',
    short: 'Keep bookmarks in a JSON file',
    version: resolveVersion(undefined, import.meta.url),
    persistentFlags: { store: { type: 'string', usage: 'bookmarks file (default: $BM_STORE, else ./bm.json)' } },
    commands: [
      new Command({ use: 'link', short: 'Add, list and delete links', commands: [add, listCommand(), rmCommand()] }),
    ],
  });
  declarePrompt(add, {
    name: 'save-link',
    description: 'Save a link with a title',
    arguments: [{ name: 'url', required: true }],
    template: 'Save {{url}} with a short, descriptive title.',
  });
  declareResource(root, {
    uri: 'bm://docs/usage',
    name: 'usage',
    mimeType: 'text/markdown',
    content: '# bm\nbm link add <url> [title]\n',
  });
  mountMcpServer(root, { instructions: "Bookmarks. link_rm needs yes: true; set it only with the user's consent." });
  return root;
}
