#!/usr/bin/env node
// A stand-in language server for lifecycle tests, built on the same protocol library: it answers `initialize`, then
// behaves as its argument says. `hang`: never answers requests. `crash`: exits on the first opened document.
// `silent`: never answers `initialize`. `child`: also starts a grandchild that sleeps (to prove the group is killed).
import { spawn } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const mode = process.argv[2] ?? 'hang';
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
if (mode === 'child') spawn('sleep', ['300'], { stdio: 'ignore' });
connection.onRequest('initialize', () => (mode === 'silent' ? new Promise(() => {}) : { capabilities: {} }));
connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => process.exit(0));
connection.onRequest('textDocument/documentSymbol', () => new Promise(() => {}));
connection.onNotification('textDocument/didOpen', () => {
  if (mode === 'crash') process.exit(3);
});
connection.listen();
