/**
 * Preloaded into each test file's process by scripts/run-tests.ts: as the process exits, writes
 * the CPU time it and the children it waited for used to the descriptor TEST_CPU_FD names. The
 * variable is removed at once, so processes the test starts with its environment do not write
 * to a descriptor that is not theirs.
 */
import fs from 'node:fs';
import { ownCpuMs } from './cpu-time.ts';

const fd = Number(process.env.TEST_CPU_FD);
delete process.env.TEST_CPU_FD;

if (Number.isInteger(fd) && fd > 2) {
  process.once('exit', () => {
    const ms = ownCpuMs();
    if (ms !== null) fs.writeSync(fd, `${ms}\n`);
  });
}
