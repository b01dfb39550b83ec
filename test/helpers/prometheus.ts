import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SAFETY_NET_MS } from './safety-net.js';

/** Debian's prometheus package (.ci/setup.d/40-prometheus.sh installs it): the server and promtool. */
export const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';

/**
 * Why the Prometheus tests cannot run here, or undefined. In CI a missing Prometheus is a failure, never a skip:
 * .ci/setup.d installs it, so its absence means the setup broke.
 */
export const prometheusMissing: string | undefined =
  existsSync(PROMETHEUS) && existsSync(PROMTOOL)
    ? undefined
    : `${PROMETHEUS} or ${PROMTOOL} is not installed (apt-get install prometheus, as .ci/setup.d/40-prometheus.sh does)`;
export const skipPrometheus = prometheusMissing !== undefined && process.env.CI !== 'true';

export interface ToolResult {
  code: number;
  output: string;
}

/** Runs promtool with these arguments (and stdin), bounded in time. */
export function promtool(args: string[], stdin?: string, cwd?: string): Promise<ToolResult> {
  if (prometheusMissing) throw new Error(prometheusMissing);
  return new Promise((resolve) => {
    const child = execFile(PROMTOOL, args, { cwd, timeout: SAFETY_NET_MS }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin?.end(stdin ?? '');
  });
}
