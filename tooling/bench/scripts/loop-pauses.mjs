// Loaded into the `bough mcp --http` server the stall probe starts (node --import): records every pause of the
// event loop longer than 20 ms (a 5 ms timer that came late), with the CPU time the process spent in it, and writes
// them to $BOUGH_LOOP_PAUSES when the server exits. On a loaded machine the wall time of a pause includes waiting
// for a core; its CPU time is what the server itself blocked the loop for.
import { writeFileSync } from 'node:fs';

const out = process.env.BOUGH_LOOP_PAUSES;
if (out) {
  const pauses = [];
  let last = Date.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = Date.now();
    const used = process.cpuUsage(lastCpu);
    if (now - last > 20)
      pauses.push({ at: last, wall_ms: now - last, cpu_ms: Math.round((used.user + used.system) / 1000) });
    last = now;
    lastCpu = process.cpuUsage();
  }, 5).unref();
  process.on('exit', () => writeFileSync(out, JSON.stringify(pauses)));
}
