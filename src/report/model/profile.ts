import { OFFICIAL_CLIENT } from '../../requirements/catalog.js';
import type { Profile } from '../../requirements/types.js';
import type { ProfileResult, RequirementResult } from './types.js';

const CLIENT_NAME = `the official client (${OFFICIAL_CLIENT.repository} ${OFFICIAL_CLIENT.version})`;

/**
 * What the profile's requirements say together, in the words every view shows: the official client would fail here,
 * with the first line of the client that rejects the answer (the client checks in the catalog's order, which is its
 * own), or that it would work, or that nothing could be judged and why.
 */
export function profileResult(name: Profile, requirements: readonly RequirementResult[]): ProfileResult {
  const results = requirements.filter((result) => result.level === 'CLIENT');
  const client = { ...OFFICIAL_CLIENT };
  const failing = results.filter((result) => result.checks.some((check) => check.verdict === 'fail'));
  const [first] = failing;
  const check = first?.checks.find((candidate) => candidate.verdict === 'fail');
  if (first && check) {
    const more =
      failing.length > 1
        ? `; ${failing.length - 1} more of its checks fail (${failing
            .slice(1)
            .map((result) => result.id)
            .join(', ')})`
        : '';
    const sometimes = first.verdict === 'flaky' ? ' in some of the runs' : '';
    return {
      name,
      client,
      outcome: 'would-fail',
      summary: `The official client would fail here${sometimes} (${first.id}): ${oneLine(check.actual ?? check.description)} (expected: ${check.expected ?? first.title}); the client's line: ${first.section} "${first.quote}"${more}.`,
    };
  }
  const passed = results.filter((result) => result.verdict === 'pass');
  if (passed.length > 0) {
    const unjudged = results.length - passed.length;
    return {
      name,
      client,
      outcome: 'would-work',
      summary:
        unjudged === 0
          ? `${capitalised(CLIENT_NAME)} would work here: every check of its code passed.`
          : `${capitalised(CLIENT_NAME)} would work here on what could be judged; ${unjudged} of its checks could not be judged.`,
    };
  }
  const reason = results
    .flatMap((result) => result.checks)
    .find((candidate) => candidate.verdict === 'skip' || candidate.verdict === 'error');
  return {
    name,
    client,
    outcome: 'not-judged',
    summary: `What ${CLIENT_NAME} would make of this server could not be judged${reason ? `: ${reason.error?.message ?? reason.description}` : ''}.`,
  };
}

/** The answer as the summary quotes it, on one line: a body's own line breaks would break the terminal's. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

const capitalised = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
