#!/usr/bin/env node
import { main } from 'ax-ts';
import { buildCli } from './cli.js';

void main(buildCli());
