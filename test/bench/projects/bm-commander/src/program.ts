// bm on commander (the benchmark's twin of test/bench/bm): the same commands, flags and output. Run by
// main.ts as it is, and by main-ax.ts with ax-ts's commander front end installed.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { emit, fail, load, save, storeFile, type Link } from './store.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
export const program = new Command('bm')
  .description('Keep bookmarks in a JSON file')
  .version(version)
  .option('--store <file>', 'bookmarks file (default: $BM_STORE, else ./bm.json)')
  .option('--dry-run', 'show what would change without changing anything');
const link = program.command('link').description('Add, list and delete links');
const collect = (v: string, prev: string[]) => [...prev, v];

link
  .command('add')
  .description('Save a link')
  .argument('<url>', 'the address')
  .argument('[title]', 'a title (default: the address)')
  .option('-t, --tag <tag>', 'tag (repeat for several)', collect, [])
  .action(async function (this: Command, url: string, title: string | undefined, opts: { tag: string[] }) {
    const g = this.optsWithGlobals<{ store?: string; dryRun?: boolean }>();
    const file = storeFile(g.store);
    const links = await load(file);
    const l: Link = { id: (links.at(-1)?.id ?? 0) + 1, url, title: title ?? url, tags: opts.tag };
    if (!g.dryRun) await save(file, [...links, l]);
    emit(l);
  });

link
  .command('list')
  .alias('ls')
  .description('List links')
  .option('--tag <tag>', 'only links with this tag')
  .option('--limit <n>', 'at most this many links', (v) => Number.parseInt(v, 10), 20)
  .action(async function (this: Command, opts: { tag?: string; limit: number }) {
    const links = await load(storeFile(this.optsWithGlobals<{ store?: string }>().store));
    emit(links.filter((l) => opts.tag === undefined || l.tags.includes(opts.tag)).slice(0, opts.limit));
  });

link
  .command('rm')
  .description('Delete a link')
  .argument('<id>', 'link id', (v) => Number.parseInt(v, 10))
  .option('-y, --yes', 'delete without asking')
  .action(async function (this: Command, id: number, opts: { yes?: boolean }) {
    const g = this.optsWithGlobals<{ store?: string; dryRun?: boolean }>();
    const file = storeFile(g.store);
    const links = await load(file);
    const l = links.find((x) => x.id === id);
    if (!l) fail(`no link with id ${id}`, 5);
    if (!g.dryRun) {
      if (!opts.yes) fail('confirmation required: pass --yes', 2);
      await save(
        file,
        links.filter((x) => x !== l),
      );
    }
    emit(l);
  });
