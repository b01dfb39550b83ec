import { variantLabel } from '../exchange/credentials.js';
import { langRequests, ownStatusRequests } from '../record/plan.js';
import type { StatusAnswer } from './checks/status.js';
import type { Exchange } from '../exchange/exchange.js';
import type { ScenarioContext } from './scenario.js';

/**
 * Every status answer of the view's status that got through, the lang ones included, each with its classification;
 * failed requests are left out. The run's own status has the credential probes and the other ids besides, every other
 * status the refusals it is asked. Made once per status of a target, however many scenarios read them: the requests
 * depend on the status alone, and each answer's classification on the target's recording alone.
 */
export async function everyStatusAnswer({ target, answer }: Pick<ScenarioContext, 'target' | 'answer'>): Promise<readonly StatusAnswer[]> {
  // The view's own answer is one object per target and status, whichever scenario's view asks.
  const plain = await target.status().catch(() => undefined);
  if (!plain) return statusAnswers({ target, answer });
  let answers = statusAnswersOf.get(plain);
  if (!answers) {
    answers = statusAnswers({ target, answer });
    statusAnswersOf.set(plain, answers);
  }
  return answers;
}

const statusAnswersOf = new WeakMap<Exchange, Promise<readonly StatusAnswer[]>>();

async function statusAnswers({ target, answer }: Pick<ScenarioContext, 'target' | 'answer'>): Promise<StatusAnswer[]> {
  const requests = [...ownStatusRequests(target), ...(await langRequests(target))];
  const answers = await Promise.all(
    requests.map(async (request) => {
      const exchange = await target.status(request).catch(() => undefined);
      return (
        exchange && {
          requestedId: request.id ?? target.statusId,
          label: `answer to GET ${exchange.request.path} with ${variantLabel(exchange.request.credentials)}`,
          exchange,
          classified: answer(exchange),
        }
      );
    }),
  );
  return answers.filter((entry): entry is StatusAnswer => entry !== undefined);
}

/**
 * Ends the scenario when the valid request for the status got no success: everything the scenario judges comes from
 * that answer, so the skip names what happened to it (refused, a front's page) rather than what is missing further on.
 * A success that is not the envelope is judged on (ENV-JSON and the rest fail on it), never skipped here.
 */
export function skipUnlessStatusSucceeded({ answer, skip }: Pick<ScenarioContext, 'answer' | 'skip'>, plain: Exchange): void {
  const { status } = plain.response;
  if (status >= 200 && status < 300) return;
  const { origin, meaning } = answer(plain);
  const how =
    origin.kind === 'front'
      ? `answered HTTP ${status} by ${origin.vendor ? `${origin.vendor} (${origin.front})` : `a ${origin.front}`} in front of the API`
      : meaning.kind === 'refused' && status === 404
        ? 'answered HTTP 404 by the API, as a status that does not exist is'
        : meaning.kind === 'refused'
          ? `refused by the API with HTTP ${status}`
          : `answered HTTP ${status}`;
  skip(
    `the valid request (GET ${plain.request.path} with the token) was not served: ${how}, so there was nothing to judge (see AUTH-TOKEN-ACCEPTED)`,
    plain,
  );
}
