#!/usr/bin/env node
// The same bm on commander with ax-ts's commander front end installed (docs/frontends.md): the
// bench's row for what `withAx` costs a person's invocation.
import { withAx } from 'ax-ts/commander';
import { program } from './program.js';

await withAx(program).parseAsync();
