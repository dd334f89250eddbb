import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBashTools, handleBash } from '@bough/bash';
import type { ToolContext } from '@bough/core';
import { sandboxSupport } from '@bough/process';
import { type BenchRow, type BenchSuite, pairedMedians, unmeasured } from '../harness.js';

const O_CLOEXEC = 0o2000000;

/** Descriptors 3 and up of this process without close-on-exec: with any, a sandboxed command starts through a closer. */
function heldDescriptors(): number[] {
  const held: number[] = [];
  for (const name of readdirSync('/proc/self/fd')) {
    const fd = Number(name);
    if (fd < 3) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
      if (flags && (Number.parseInt(flags[1] as string, 8) & O_CLOEXEC) === 0) held.push(fd);
    } catch {
      // closed meanwhile (the directory handle of the listing)
    }
  }
  return held;
}

/** Node's own spawn of `argv`, pipes drained, in its own process group (what any supervised run needs). */
function plainSpawn(argv: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

const callContext = (): ToolContext => ({ signal: new AbortController().signal, callId: 'bench' });

/** The costs of issue 19: a command in the OS sandbox, and a background job against a normal call. */
export const jobsSuite: BenchSuite = {
  name: 'bash-jobs',
  async run({ scratch, scale, log }) {
    const suite = 'bash-jobs';
    const rows: BenchRow[] = [];
    const root = join(scratch, 'ws');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    const runs = Math.max(20, Math.round(60 * scale));

    const support = sandboxSupport();
    if (!support.available) {
      log(`sandbox rows skipped: ${support.reason}`);
      rows.push(
        unmeasured(suite, "bash 'true' in the OS sandbox", 'ms per call', `bubblewrap unavailable: ${support.reason}`),
      );
    } else {
      const sandboxed = async () => {
        const out = await handleBash({ command: 'true' }, { workspaceRoot: root, sandbox: 'required' });
        if (!out.success || !out.sandboxed) throw new Error(`sandboxed run failed: ${JSON.stringify(out)}`);
      };
      const unsandboxed = async () => {
        const out = await handleBash({ command: 'true' }, { workspaceRoot: root });
        if (!out.success) throw new Error(out.error);
      };
      const closer = heldDescriptors();
      const how =
        `bwrap with${support.userNamespace ? '' : 'out'} a user namespace, no network, protected-file scan of a ` +
        '1-file workspace; ' +
        (closer.length === 0
          ? 'this process holds no inheritable descriptor'
          : `this process holds inheritable descriptors (${closer.join(', ')}), which ` +
            (closer.length <= 3
              ? 'bwrap gets as pipes of ours and closes itself (no extra process)'
              : 'a bash closer inside the sandbox closes (one more process per command)'));
      // The goal of issue 34 is against the same tool call without the sandbox: like with like (argv parsing, the
      // workspace's cwd check, program lookup, supervision on both sides; only the sandbox differs).
      const [inSandbox, bashPlain] = await pairedMedians(sandboxed, unsandboxed, runs, 5);
      rows.push({
        suite,
        name: "bash 'true' in the OS sandbox, against outside it",
        detail: 'the OS sandbox is bubblewrap; the same handleBash call with the sandbox on and off',
        unit: 'ms per call',
        ours: inSandbox,
        peer: bashPlain,
        peerLabel: "handleBash('true'), sandbox off",
        goal: '≤ 3×',
        met: inSandbox <= 3 * bashPlain,
        note: how,
      });
      const [inSandbox2, plain] = await pairedMedians(sandboxed, () => plainSpawn(['true'], root), runs, 5);
      rows.push({
        suite,
        name: "bash 'true' in the OS sandbox, against a plain spawn",
        unit: 'ms per call',
        ours: inSandbox2,
        peer: plain,
        peerLabel: "child_process.spawn('true'), detached",
        note: 'the floor of any command: a bare spawn, without the bash tool around it',
      });
    }

    // A job: start it, then read its output once it is there; against the same command as a normal call.
    const tools = createBashTools({ workspaceRoot: root, limits: { maxJobs: 8 } });
    const command = 'echo ready';
    const asJob = async () => {
      const started = await tools.bash.handler({ command, background: true }, callContext());
      if (!started.success || !('job_id' in started)) throw new Error(`job start failed: ${JSON.stringify(started)}`);
      const out = await tools.jobs.handler({ action: 'wait', job_id: started.job_id, timeout: 10_000 }, callContext());
      if (!out.success || !('stdout' in out) || out.stdout !== 'ready\n') {
        throw new Error(`job output missing: ${JSON.stringify(out)}`);
      }
    };
    const normal = async () => {
      const out = await handleBash({ command }, { workspaceRoot: root });
      if (!out.success || !('stdout' in out) || out.stdout !== 'ready\n') throw new Error('normal call failed');
    };
    try {
      const [job, call] = await pairedMedians(asJob, normal, runs, 5);
      rows.push({
        suite,
        name: 'start a job and read its first output',
        detail: "start a job ('echo ready') and read its first output, against a normal call",
        unit: 'ms',
        ours: job,
        peer: call,
        peerLabel: "bash 'echo ready' (foreground)",
        goal: '≤ 1.5×',
        met: job <= 1.5 * call,
        note: 'bash background: true, then jobs wait until the output is there (two tool calls)',
      });
    } finally {
      await tools.dispose();
    }
    return rows;
  },
};
