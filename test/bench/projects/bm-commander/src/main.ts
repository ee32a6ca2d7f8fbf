#!/usr/bin/env node
// bm on commander, as its author ships it.
import { program } from './program.js';

await program.parseAsync();
