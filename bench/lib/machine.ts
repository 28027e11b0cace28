/** What the results depend on: cores, CPU model, load average, Node version. */
import os from 'node:os';

export interface MachineInfo {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  /** 1, 5 and 15 minute load averages when the run started and ended. */
  loadStart: number[];
  loadEnd?: number[];
  date: string;
}

export function machineInfo(): MachineInfo {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    date: new Date().toISOString(),
  };
}

export const loadNow = (): number[] => os.loadavg().map((n) => Math.round(n * 100) / 100);
