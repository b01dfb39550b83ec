import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './helpers/run-cli.js';

const EXAMPLES = join(repoRoot, 'examples', 'prometheus');

interface InhibitRule {
  source_matchers: string[];
  target_matchers: string[];
  equal: string[];
}

type Labels = Record<string, string>;

/** One Alertmanager matcher (`name = "value"`, `!=`, `=~`, `!~`; a regular expression matches the whole value). */
function matches(matcher: string, labels: Labels): boolean {
  const parsed = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*"?(.*?)"?\s*$/.exec(matcher);
  if (!parsed) throw new Error(`not a matcher: ${matcher}`);
  const [, name = '', operator, value = ''] = parsed;
  const actual = labels[name] ?? '';
  if (operator === '=') return actual === value;
  if (operator === '!=') return actual !== value;
  const whole = new RegExp(`^(?:${value})$`).test(actual);
  return operator === '=~' ? whole : !whole;
}

/** Whether Alertmanager would hold back `target` while the `firing` alerts fire, by the example's inhibit rules. */
function inhibited(rules: InhibitRule[], target: Labels, firing: Labels[]): boolean {
  return rules.some(
    (rule) =>
      rule.target_matchers.every((matcher) => matches(matcher, target)) &&
      firing.some(
        (source) =>
          source !== target &&
          rule.source_matchers.every((matcher) => matches(matcher, source)) &&
          rule.equal.every((label) => source[label] === target[label]),
      ),
  );
}

test('the Alertmanager example holds back the per-requirement alerts of a target whose diagnosis or missing verdict already alerts', async () => {
  const config = parse(await readFile(join(EXAMPLES, 'alertmanager.yml'), 'utf8')) as {
    inhibit_rules: InhibitRule[];
    route: { receiver: string };
    receivers: { name: string }[];
  };
  const alerts = parse(await readFile(join(EXAMPLES, 'alerts.yml'), 'utf8')) as { groups: { rules: { alert: string }[] }[] };
  const defined = alerts.groups.flatMap((group) => group.rules.map((rule) => rule.alert));
  expect(config.receivers.map((receiver) => receiver.name)).toContain(config.route.receiver);
  // Every alert name the matchers quote is one alerts.yml defines.
  const quoted = config.inhibit_rules.flatMap((rule) => [...rule.source_matchers, ...rule.target_matchers]).join(' ');
  for (const name of quoted.match(/Ticketing[A-Za-z]+/g) ?? []) expect(defined).toContain(name);

  const job = 'ticketing-conformance';
  const failing = (instance: string, requirement: string): Labels => ({
    alertname: 'TicketingRequirementFailing',
    job,
    instance,
    requirement,
  });
  const diagnosis: Labels = {
    alertname: 'TicketingHostingStackDiagnosis',
    job,
    instance: 'production',
    diagnosis: 'authorization-header-stripped',
  };
  const notJudged: Labels = { alertname: 'TicketingConformanceNotJudged', job, instance: 'edge' };
  const flapping: Labels = { alertname: 'TicketingConformanceFlapping', job, instance: 'staging' };
  const production = [failing('production', 'AUTH-TOKEN-ACCEPTED'), failing('production', 'SELFSERVICE-ACCEPTED')];
  const edge = failing('edge', 'STATUS-ID');
  const staging = failing('staging', 'STATUS-COLOUR');
  const firing = [diagnosis, notJudged, flapping, ...production, edge, staging];
  const rules = config.inhibit_rules;
  for (const alert of [...production, edge]) expect(inhibited(rules, alert, firing)).toBe(true);
  // A flapping verdict names no cause; a cause of another target hides nothing here; the causes themselves still page.
  expect(inhibited(rules, staging, firing)).toBe(false);
  for (const cause of [diagnosis, notJudged, flapping]) expect(inhibited(rules, cause, firing)).toBe(false);
  // Without its cause, a requirement's alert pages.
  expect(inhibited(rules, production[0] as Labels, [flapping, ...production])).toBe(false);
});
