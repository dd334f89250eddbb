// `bough call` ends what its tools started in a `finally`: a dispose that rejects is reported on stderr and changes
// neither the call's exit code nor the usage error it raised.
import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { disposeReported } from './internal/dispose-reported.js';

const failing = () => Promise.reject(new Error('clangd would not stop'));

async function command(io: { stderr: (text: string) => void }, outcome: () => number): Promise<number> {
  try {
    return outcome();
  } finally {
    await disposeReported('call', failing, io);
  }
}

describe('disposeReported', () => {
  it('reports a rejected dispose on stderr and resolves', async () => {
    const lines: string[] = [];
    await expect(disposeReported('call', failing, { stderr: (text) => lines.push(text) })).resolves.toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(/^bough call: warning: .*clangd would not stop.*\n$/)]);
  });

  it('says nothing when dispose succeeds', async () => {
    const lines: string[] = [];
    let ended = false;
    const dispose = async () => {
      ended = true;
    };
    await disposeReported('call', dispose, { stderr: (text) => lines.push(text) });
    expect({ ended, lines }).toEqual({ ended: true, lines: [] });
  });

  it("keeps the command's exit code and its usage error", async () => {
    const lines: string[] = [];
    const io = { stderr: (text: string) => lines.push(text) };
    expect(await command(io, () => 1)).toBe(1);
    const usage = new UsageError('No tool named nope.');
    await expect(
      command(io, () => {
        throw usage;
      }),
    ).rejects.toBe(usage);
    expect(lines).toHaveLength(2);
  });
});
