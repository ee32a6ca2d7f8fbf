#!/usr/bin/env node
/** Entry point of the `ax-ts` tool: `node --import tsx cmd/ax-ts/main.ts schema-diff old.json new.json`. */
import { main } from '../../lib/index.ts';
import { buildAxTsCli } from './cli.ts';

void main(buildAxTsCli());
