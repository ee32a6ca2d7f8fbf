#!/usr/bin/env node
// bm on citty (the benchmark's twin of test/bench/bm): the same commands, flags and output.
import { readFileSync } from 'node:fs';
import { defineCommand, runMain } from 'citty';
import { emit, fail, load, save, storeFile, type Link } from './store.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const globals = {
  store: { type: 'string', description: 'bookmarks file (default: $BM_STORE, else ./bm.json)' },
  'dry-run': { type: 'boolean', description: 'show what would change without changing anything' },
} as const;

const add = defineCommand({
  meta: { name: 'add', description: 'Save a link' },
  args: {
    ...globals,
    url: { type: 'positional', description: 'the address', required: true },
    title: { type: 'positional', description: 'a title (default: the address)', required: false },
    tag: { type: 'string', alias: 't', description: 'tag (repeat for several)' },
  },
  async run({ args }) {
    const file = storeFile(args.store);
    const links = await load(file);
    const tags = ([] as string[]).concat((args.tag as string | string[] | undefined) ?? []);
    const l: Link = { id: (links.at(-1)?.id ?? 0) + 1, url: args.url, title: args.title ?? args.url, tags };
    if (!args['dry-run']) await save(file, [...links, l]);
    emit(l);
  },
});

const list = defineCommand({
  meta: { name: 'list', description: 'List links' },
  args: {
    ...globals,
    tag: { type: 'string', description: 'only links with this tag' },
    limit: { type: 'string', description: 'at most this many links', default: '20' },
  },
  async run({ args }) {
    const links = await load(storeFile(args.store));
    const limit = Number.parseInt(args.limit, 10);
    emit(links.filter((l) => args.tag === undefined || l.tags.includes(args.tag)).slice(0, limit));
  },
});

const rm = defineCommand({
  meta: { name: 'rm', description: 'Delete a link' },
  args: {
    ...globals,
    id: { type: 'positional', description: 'link id', required: true },
    yes: { type: 'boolean', alias: 'y', description: 'delete without asking' },
  },
  async run({ args }) {
    const id = Number.parseInt(args.id, 10);
    const file = storeFile(args.store);
    const links = await load(file);
    const l = links.find((x) => x.id === id);
    if (!l) fail(`no link with id ${id}`, 5);
    if (!args['dry-run']) {
      if (!args.yes) fail('confirmation required: pass --yes', 2);
      await save(
        file,
        links.filter((x) => x !== l),
      );
    }
    emit(l);
  },
});

const main = defineCommand({
  meta: { name: 'bm', version, description: 'Keep bookmarks in a JSON file' },
  subCommands: {
    link: defineCommand({
      meta: { name: 'link', description: 'Add, list and delete links' },
      subCommands: { add, list, rm },
    }),
  },
});

await runMain(main);
