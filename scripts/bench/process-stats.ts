import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessRun {
  code: number;
  wallMs: number;
  /** Highest resident memory of each process of the tree, added up (exact for a single process). */
  peakRssMb: number;
  /** CPU time of the process and every child it waited for, user and system, from the bench's own accounts of its children. */
  cpuMs: number;
  stdout: string;
  stderr: string;
}

function statusField(pid: number, field: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${field}:`));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Clock ticks a second, as /proc counts CPU time (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time of the bench's children that have ended and been waited for (cutime and cstime of /proc/self/stat). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name, which may hold spaces, in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

function descendants(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/).map(Number) : []) found.push(child, ...descendants(child));
    }
  } catch {
    // The process ended between two reads.
  }
  return found;
}

/** Runs a command to its end, timing it and sampling the memory high-water mark of it and its children. */
export function measure(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpuBefore = childrenCpuMs();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const highWater = new Map<number, number>();
    const sample = (): void => {
      if (child.pid === undefined) return;
      for (const pid of [child.pid, ...descendants(child.pid)]) {
        highWater.set(pid, Math.max(highWater.get(pid) ?? 0, statusField(pid, 'VmHWM')));
      }
    };
    const sampler = setInterval(sample, 5);
    const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      sample();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(killer);
      const peakKb = [...highWater.values()].reduce((sum, value) => sum + value, 0);
      resolve({
        code: code ?? -1,
        wallMs: performance.now() - started,
        peakRssMb: peakKb / 1024,
        cpuMs: childrenCpuMs() - cpuBefore,
        stdout,
        stderr,
      });
    });
  });
}
