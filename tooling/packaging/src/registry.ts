import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { killGroup } from './run.js';

/** A running local registry: its URL, an npm config file that can publish to it, and how to stop it. */
export interface LocalRegistry {
  readonly url: string;
  /** An npm user config with this registry and a token for it (pass as `--userconfig`). */
  readonly npmrc: string;
  stop(): void;
}

/** The registry the running user's npm uses, asked at run time; it is the local registry's only uplink. */
export function upstreamRegistry(): string {
  // The caller's npm/pnpm settings from the environment are left out: the user's own npm config decides.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
  return execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env }).trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function config(dir: string, upstream: string): string {
  // Our own names are never proxied: what an install gets for them is exactly what this run published.
  return `storage: ${JSON.stringify(join(dir, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(join(dir, 'htpasswd'))}
    max_users: 10
uplinks:
  upstream:
    url: ${JSON.stringify(upstream)}
    timeout: 60s
    maxage: 60m
packages:
  '@bough/*':
    access: $all
    publish: $authenticated
  'bough':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: upstream
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
`;
}

/**
 * Starts verdaccio on 127.0.0.1 at a free port with its storage and config in `dir` (a temp folder), waits until it
 * answers, and registers a user so npm can publish.
 */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, config(dir, upstreamRegistry()));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-4000);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-4000);
  });
  const stop = () => killGroup(child.pid);
  try {
    await waitUntilUp(url, child, () => log);
    const token = await addUser(url);
    const npmrc = join(dir, 'npmrc');
    const hostPath = url.replace(/^http:/, '');
    writeFileSync(npmrc, `registry=${url}\n${hostPath}:_authToken=${token}\n`);
    return { url, npmrc, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}): ${log()}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`verdaccio did not answer within 60 s: ${log()}`);
}

async function addUser(url: string): Promise<string> {
  const name = 'packaging-test';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'local-only-password' }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`could not add a registry user: ${JSON.stringify(body)}`);
  return body.token;
}
