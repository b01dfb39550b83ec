import { variantLabel } from '../exchange/credentials.js';
import { independentStatusRequests, langRequests } from '../record/plan.js';
import type { StatusAnswer } from './checks/status.js';
import type { ScenarioContext } from './scenario.js';

/** Every status answer of the run that got through, the lang ones included, each with its classification; failed requests are left out. */
export async function everyStatusAnswer({ target, answer }: Pick<ScenarioContext, 'target' | 'answer'>): Promise<StatusAnswer[]> {
  const requests = [...independentStatusRequests(target), ...(await langRequests(target))];
  const answers = await Promise.all(
    requests.map(async (request) => {
      const exchange = await target.status(request).catch(() => undefined);
      return (
        exchange && {
          requestedId: request.id ?? target.settings.statusId,
          label: `answer to GET ${exchange.request.path} with ${variantLabel(exchange.request.credentials)}`,
          exchange,
          classified: answer(exchange),
        }
      );
    }),
  );
  return answers.filter((entry): entry is StatusAnswer => entry !== undefined);
}
