import { spawn, type ChildProcess } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { SAFETY_NET_MS } from '../helpers/safety-net.js';

/** A server the lab started in its own process group, so that it and every child it forks stop together. */
export interface LabProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

const running = new Set<LabProcess>();

// Last resort when the worker exits without running afterAll: no lab server may outlive the test run.
process.once('exit', () => {
  for (const server of running) killGroup(server.child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts a command in the foreground of a new process group, its output appended to logFile. */
export async function startProcess(name: string, command: string, args: string[], logFile: string): Promise<LabProcess> {
  const log = await open(logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', log.fd, log.fd] });
  await log.close();
  const server: LabProcess = {
    name,
    child,
    logFile,
    async stop() {
      running.delete(server);
      killGroup(child, 'SIGTERM');
      if (await exited(child, 5000)) return;
      killGroup(child, 'SIGKILL');
      await exited(child, 2000);
    },
  };
  running.add(server);
  child.once('error', () => running.delete(server));
  return server;
}

export async function tail(file: string, lines = 15): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** Polls until ready() holds; fails early, with the log, when the process dies first. Bounded in time. */
export async function waitUntil(server: LabProcess, what: string, ready: () => Promise<boolean>, timeoutMs = SAFETY_NET_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited before ${what}:\n${await tail(server.logFile)}`);
    }
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  throw new Error(`${server.name}: no ${what} within ${timeoutMs} ms:\n${await tail(server.logFile)}`);
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
