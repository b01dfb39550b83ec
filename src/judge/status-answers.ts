import { variantLabel } from '../exchange/credentials.js';
import { independentStatusRequests, langRequests } from '../record/plan.js';
import type { Target } from '../record/target.js';
import type { StatusAnswer } from './checks/status.js';

/** Every status answer of the run that got through, the lang ones included; failed requests are left out. */
export async function everyStatusAnswer(target: Target): Promise<StatusAnswer[]> {
  const requests = [...independentStatusRequests(target), ...(await langRequests(target))];
  const answers = await Promise.all(
    requests.map(async (request) => {
      const exchange = await target.status(request).catch(() => undefined);
      return (
        exchange && {
          requestedId: request.id ?? target.settings.statusId,
          label: `answer to GET ${exchange.request.path} with ${variantLabel(exchange.request.credentials)}`,
          exchange,
        }
      );
    }),
  );
  return answers.filter((answer): answer is StatusAnswer => answer !== undefined);
}
