import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference-server/server.js';
import type { RunningExporter } from '../../src/exporter/server.js';
import { exporterFor, scrape } from '../helpers/exporter.js';
import { fileResources } from '../helpers/file-resources.js';
import { freePort } from '../helpers/free-port.js';
import { PROMETHEUS, prometheusMissing, promtool, skipPrometheus } from '../helpers/prometheus.js';
import { repoRoot } from '../helpers/run-cli.js';
import { switchFront, type SwitchFront } from '../helpers/switch-front.js';
import { startProcess, tail, waitUntil, type LabProcess } from '../lab/processes.js';
import { SAFETY_NET_MS, removeFolder } from '../helpers/safety-net.js';

const EXAMPLES = join(repoRoot, 'examples', 'prometheus');
const TOKEN = 'prometheus-test-token-Wd93kq';
/** Short enough for the test to see changes within a minute, long enough for a run on a loaded machine. */
const SCRAPE_SECONDS = 3;

describe.skipIf(skipPrometheus)(`Prometheus${skipPrometheus ? ` (skipped outside CI: ${prometheusMissing})` : ''}`, () => {
  test('Prometheus and promtool are installed', () => {
    // In CI this fails instead of skipping: .ci/setup.d/40-prometheus.sh should have installed them.
    expect(prometheusMissing).toBeUndefined();
  });

  test('the example alert rules pass promtool check rules and their unit tests (promtool test rules)', async () => {
    const checked = await promtool(['check', 'rules', 'alerts.yml'], undefined, EXAMPLES);
    expect(checked.output).toContain('SUCCESS: 4 rules found');
    expect(checked.code).toBe(0);
    const tested = await promtool(['test', 'rules', 'alerts.test.yml'], undefined, EXAMPLES);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code).toBe(0);
    const config = await promtool(['check', 'config', 'prometheus.yml'], undefined, EXAMPLES);
    expect(config.code).toBe(0);
  });

  test('promtool would catch a broken rule, so its success above means something', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'promtool-'));
    try {
      const rules = parse(await readFile(join(EXAMPLES, 'alerts.yml'), 'utf8')) as { groups: { rules: { expr: string }[] }[] };
      const first = rules.groups[0]?.rules[0];
      if (first) first.expr = first.expr.replace('== 1', '== 2');
      await writeFile(join(dir, 'alerts.yml'), stringify(rules));
      await writeFile(join(dir, 'alerts.test.yml'), await readFile(join(EXAMPLES, 'alerts.test.yml')));
      const tested = await promtool(['test', 'rules', 'alerts.test.yml'], undefined, dir);
      expect(tested.code).not.toBe(0);
      expect(tested.output).toContain('TicketingRequirementFailing');
    } finally {
      await removeFolder(dir);
    }
  });

  describe('a real Prometheus scraping the exporter, which watches the reference server with and without a fault', () => {
    let healthy: RunningReferenceServer;
    let faulty: RunningReferenceServer;
    let front: SwitchFront;
    let exporter: RunningExporter;
    let prometheus: LabProcess | undefined;
    let dir: string;
    let api: string;
    // Each stops before what it talks to: Prometheus, then the exporter, then the front, then the servers.
    const { cleanUpAfterAll, tempFolder } = fileResources();

    beforeAll(async () => {
      healthy = await startReferenceServer({ token: TOKEN });
      cleanUpAfterAll(healthy.close);
      faulty = await startReferenceServer({ token: TOKEN, variants: ['authorization-stripped'] });
      cleanUpAfterAll(faulty.close);
      front = await switchFront(faulty.url);
      cleanUpAfterAll(front.close);
      exporter = await exporterFor([{ name: 'helpdesk', baseUrl: front.url, token: TOKEN }]);
      cleanUpAfterAll(exporter.close);
      dir = await tempFolder('prometheus-');
      // The example configuration, with its relabelling, pointed at this exporter and this target, scraped often.
      const config = parse(await readFile(join(EXAMPLES, 'prometheus.yml'), 'utf8')) as {
        global: Record<string, string>;
        rule_files: string[];
        scrape_configs: {
          job_name: string;
          scrape_timeout?: string;
          static_configs: { targets: string[] }[];
          relabel_configs?: { replacement?: string }[];
        }[];
      };
      const exporterAddress = new URL(exporter.url).host;
      config.global = { scrape_interval: `${SCRAPE_SECONDS}s`, evaluation_interval: '1s' };
      config.rule_files = [join(EXAMPLES, 'alerts.yml')];
      for (const job of config.scrape_configs) {
        job.scrape_timeout = `${SCRAPE_SECONDS}s`;
        if (job.job_name === 'ticketing-conformance') {
          job.static_configs = [{ targets: ['helpdesk'] }];
          for (const rule of job.relabel_configs ?? []) if (rule.replacement) rule.replacement = exporterAddress;
        } else {
          job.static_configs = [{ targets: [exporterAddress] }];
        }
      }
      await writeFile(join(dir, 'prometheus.yml'), stringify(config));
      const port = await freePort();
      api = `http://127.0.0.1:${port}/api/v1`;
      prometheus = await startProcess(
        'prometheus',
        PROMETHEUS,
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        join(dir, 'prometheus.log'),
      );
      cleanUpAfterAll(prometheus.stop);
      await waitUntil(
        prometheus,
        'answer on its API',
        async () => (await fetch(`${api}/status/buildinfo`).catch(() => undefined))?.ok ?? false,
        SAFETY_NET_MS,
      );
    });

    async function query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
      const answer = (await (await fetch(`${api}/query?query=${encodeURIComponent(expr)}`)).json()) as {
        status: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      expect(answer.status).toBe('success');
      return answer.data.result;
    }

    /** Polls Prometheus until the condition holds, within a bound; fails with its log otherwise. */
    async function eventually(what: string, holds: () => Promise<boolean>, timeoutMs = SAFETY_NET_MS): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (await holds()) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`Prometheus never showed ${what} within ${timeoutMs} ms:\n${await tail(prometheus?.logFile ?? '')}`);
    }

    test('the failing requirement and the diagnosis appear, raise pending alerts, then clear when the fault is fixed', async () => {
      const failing =
        'ticketing_conformance_requirement{job="ticketing-conformance",requirement="AUTH-TOKEN-ACCEPTED",verdict="fail",outcome="failed"}';
      const diagnosed = 'ticketing_conformance_diagnosis{diagnosis="authorization-header-stripped",party="environment"}';
      await eventually('the failing requirement', async () => (await query(failing)).length === 1);
      await eventually('the diagnosis', async () => (await query(diagnosed)).length === 1);
      const [series] = await query(failing);
      // The relabelling of the example: the target's name is the instance, the scrape went to the exporter.
      expect(series?.metric.instance).toBe('helpdesk');
      expect(series?.metric.level).toBe('MUST');
      expect((await query('ticketing_conformance_verdict{verdict="not-conformant"} == 1')).length).toBe(1);
      await eventually('the alert pending', async () => {
        const alerts = (await (await fetch(`${api}/alerts`)).json()) as {
          data: { alerts: { labels: Record<string, string>; state: string }[] };
        };
        return alerts.data.alerts.some(
          (alert) => alert.labels.alertname === 'TicketingRequirementFailing' && alert.labels.instance === 'helpdesk',
        );
      });

      front.switchTo(healthy.url);
      await eventually(
        'the verdict conformant',
        async () => (await query('ticketing_conformance_verdict{verdict="conformant"} == 1')).length === 1,
      );
      await eventually('the failing requirement gone', async () => (await query(failing)).length === 0);
      expect(await query(diagnosed)).toEqual([]);
      expect(
        (await query('ticketing_conformance_requirement{job="ticketing-conformance",requirement="AUTH-TOKEN-ACCEPTED",verdict="pass"}'))
          .length,
      ).toBe(1);
      await eventually('the alert resolved', async () => {
        const alerts = (await (await fetch(`${api}/alerts`)).json()) as { data: { alerts: { labels: Record<string, string> }[] } };
        return !alerts.data.alerts.some((alert) => alert.labels.alertname === 'TicketingRequirementFailing');
      });
    });

    test('both jobs are up, and no label Prometheus holds shows the token or the target address', async () => {
      const targets = (await (await fetch(`${api}/targets`)).json()) as {
        data: {
          activeTargets: { labels: Record<string, string>; discoveredLabels: Record<string, string>; health: string; scrapeUrl: string }[];
        };
      };
      expect(targets.data.activeTargets.map((target) => target.labels.job).sort()).toEqual([
        'ticketing-conformance',
        'ticketing-conformance-exporter',
      ]);
      const everything = JSON.stringify(targets) + JSON.stringify(await query('{__name__=~"ticketing_conformance_.+"}'));
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain(new URL(front.url).host);
      expect((await query('ticketing_conformance_exporter_runs_started_total > 0')).length).toBe(1);
    });

    test('promtool check metrics accepts the probe answers (faulty and healthy) and the exporter metrics', async () => {
      for (const upstream of [faulty, healthy]) {
        front.switchTo(upstream.url);
        const answer = await scrape(`${exporter.url}/probe?target=helpdesk`);
        expect(answer.text).toContain('ticketing_conformance_requirement{');
        const checked = await promtool(['check', 'metrics'], answer.text);
        expect(checked.output).toBe('');
        expect(checked.code).toBe(0);
      }
      const own = await promtool(['check', 'metrics'], (await scrape(`${exporter.url}/metrics`)).text);
      expect(own.output).toBe('');
      expect(own.code).toBe(0);
      // And it is not an empty verdict: promtool refuses what breaks the conventions.
      const broken = await promtool(['check', 'metrics'], '# HELP x_total a gauge\n# TYPE x_total gauge\nx_total 1\n');
      expect(broken.code).not.toBe(0);
    });
  });
});
