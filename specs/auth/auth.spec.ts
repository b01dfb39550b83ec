import { accepted, refused } from '../../src/judge/checks/auth.js';
import { tokenServedTo } from '../../src/classify/reach.js';
import { whoAnswered } from '../../src/classify/words.js';
import { missingStatusControl } from '../../src/judge/checks/control.js';
import { describeResponse, outcome } from '../../src/judge/checks/outcome.js';
import { validator } from '../../src/validators/schemas.js';
import { variantLabel, type CredentialVariant } from '../../src/exchange/credentials.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import {
  INVALID_HEADER_VARIANTS,
  langRequests,
  nearMissesOf,
  PASSWORD_VARIANTS,
  sentVariants,
  TOKEN_AS_PASSWORD_VARIANTS,
} from '../../src/record/plan.js';
import { scenario, type ScenarioContext } from '../../src/judge/scenario.js';
import type { SliceScope, Target } from '../../src/record/target.js';
import type { RequirementId } from '../../src/requirements/catalog.js';

/** A 2xx body that holds no JSON at all cannot say whether the token was taken: ENV-JSON fails for it, and nothing else. */
function skipUnreadable({ skip, answer }: ScenarioContext, response: Exchange): void {
  const { meaning } = answer(response);
  const { status } = response.response;
  if (status >= 200 && status < 300 && meaning.kind === 'undecodable' && meaning.why === 'not-json') {
    skip('the answer is HTTP 2xx but not JSON, so it cannot show whether the token was accepted (see ENV-JSON)', response);
  }
}

scenario({
  id: 'auth-valid-token',
  requirements: ['AUTH-TOKEN-ACCEPTED'],
  title: 'the API token as Basic user name is accepted',
  // Every status of --status-id is the positive control of its own refusals: one never served cannot pass unseen.
  per: 'status',
  async run(context) {
    const response = await context.target.status();
    skipUnreadable(context, response);
    context.check['AUTH-TOKEN-ACCEPTED'](
      accepted(response, context.answer(response), `GET with ${variantLabel('valid')} succeeds`),
      response,
    );
  },
});

scenario({
  id: 'auth-password-ignored',
  requirements: ['AUTH-PASSWORD-IGNORED'],
  title: 'the password part is ignored',
  async run(context) {
    skipUnreadable(context, await context.target.status());
    for (const credentials of PASSWORD_VARIANTS) {
      const response = await context.target.status({ credentials });
      context.check['AUTH-PASSWORD-IGNORED'](
        accepted(response, context.answer(response), `GET with ${variantLabel(credentials)} succeeds`),
        response,
      );
    }
  },
});

const refusals = [
  {
    id: 'auth-wrong-token',
    requirement: 'AUTH-WRONG-TOKEN-REFUSED',
    title: 'a wrong token fails authentication',
    variants: (target) => sentVariants(target, ['wrong-token']),
    per: 'status',
  },
  {
    id: 'auth-near-miss-token',
    requirement: 'AUTH-NEAR-MISS-TOKEN-REFUSED',
    title: 'a token one slip from the valid one fails authentication',
    variants: (target) => nearMissesOf(target),
  },
  {
    id: 'auth-token-as-password',
    requirement: 'AUTH-TOKEN-AS-USER-NAME',
    title: 'the token sent as the password, with another user name or none, fails authentication',
    variants: (target) => sentVariants(target, TOKEN_AS_PASSWORD_VARIANTS),
  },
  {
    id: 'auth-missing-header',
    requirement: 'AUTH-MISSING-HEADER-REFUSED',
    title: 'no Authorization header fails authentication',
    variants: (target) => sentVariants(target, ['no-header']),
    per: 'status',
  },
  {
    id: 'auth-invalid-headers',
    requirement: 'AUTH-INVALID-HEADER-REFUSED',
    title: 'invalid Authorization headers fail authentication',
    variants: () => INVALID_HEADER_VARIANTS,
  },
] satisfies {
  id: string;
  requirement: RequirementId;
  title: string;
  variants(target: Target): CredentialVariant[];
  /** The refusals every status is asked (see STATUS_REFUSAL_VARIANTS) are judged on each; the other probes on the first. */
  per?: SliceScope;
}[];

for (const refusal of refusals) {
  scenario({
    id: refusal.id,
    requirements: [refusal.requirement],
    title: refusal.title,
    ...('per' in refusal ? { per: refusal.per } : {}),
    async run(context) {
      const valid = await context.target.status();
      const uncontrolled = missingStatusControl(context.reach, context.target.statusId, valid);
      if (uncontrolled) context.skip(uncontrolled, valid);
      for (const credentials of refusal.variants(context.target)) {
        const response = await context.target.status({ credentials });
        context.check[refusal.requirement](
          refused(response, context.answer(response), `GET with ${variantLabel(credentials)} fails`),
          response,
        );
      }
    },
  });
}

scenario({
  id: 'auth-error-response',
  requirements: ['AUTH-ERROR-RESPONSE'],
  title: 'how failed authentication is answered, where the document is silent',
  async run({ target, observe, answer }) {
    const isErrorEnvelope = validator('error');
    for (const credentials of ['wrong-token', 'no-header', 'bad-base64'] as const) {
      const response = await target.status({ credentials });
      const { origin } = answer(response);
      // The web server's own refusal page is named as such: Apache's or nginx's 401 page, not the application's words.
      const shape =
        response.response.json.ok && isErrorEnvelope(response.response.json.value)
          ? 'error envelope'
          : origin.kind === 'front'
            ? `${whoAnswered(origin)}'s own page, not an error envelope`
            : 'not an error envelope';
      observe['AUTH-ERROR-RESPONSE'](`answer to ${variantLabel(credentials)} (${shape})`, describeResponse(response), response);
    }
  },
});

/**
 * Nothing served: the header's fate shows only when every form of it (the token, a wrong one, malformed ones) is
 * answered exactly as no header at all, the refusal in the API's words. Then no request's header reached the
 * application; a wrong token alone would still be told from a malformed header or from none by most APIs.
 */
async function judgeUnseenHeader({ target, check, answer, skip }: ScenarioContext<'HOST-AUTHORIZATION-PASSED'>): Promise<void> {
  const without = await target.status({ credentials: 'no-header' });
  const forms: CredentialVariant[] = ['valid', 'wrong-token', ...INVALID_HEADER_VARIANTS];
  const answers = await Promise.all(forms.map((credentials) => target.status({ credentials }).catch(() => undefined)));
  const seen = answers.filter((asked): asked is Exchange => asked !== undefined);
  const refusedAlike = (asked: Exchange): boolean => {
    const { status } = asked.response;
    const refusal = status === 401 || status === 403 || (status >= 200 && status < 300);
    return answer(asked).origin.kind === 'api' && answer(asked).meaning.kind === 'refused' && refusal && sameAnswer(asked, without);
  };
  const valid =
    seen.length === forms.length && seen.every(refusedAlike) ? seen.find((asked) => asked.request.credentials === 'valid') : undefined;
  if (!valid) {
    return skip(
      'no request of this run was served with any credentials, so the answers cannot show whether the Authorization header arrives',
    );
  }
  check['HOST-AUTHORIZATION-PASSED'](
    outcome(
      false,
      'the Authorization header reaches the application',
      'an answer to some form of the header other than the one a request without it gets',
      `every form of the header (${forms.map(variantLabel).join('; ')}) got the answer a request without one gets: ${describeResponse(valid)}; the header does not reach the application, unless the token is wrong and the API answers every refusal alike`,
    ),
    valid,
  );
}

/** Two answers alike: the same HTTP code and the same body. */
const sameAnswer = (a: Exchange, b: Exchange): boolean =>
  a.response.status === b.response.status && a.response.bodyText === b.response.bodyText;

scenario({
  id: 'hosting-passes-authorization',
  requirements: ['HOST-AUTHORIZATION-PASSED'],
  title: 'the web server passes the Authorization header through to the application',
  per: 'status',
  async run(context) {
    const { target, check, answer, reach, skip } = context;
    // A request that got no answer ends the scenario here, as in every other one.
    await target.status();
    // The token served in any form, on any path, shows the header arrives; without that, a refusal cannot tell a lost
    // header from a wrong token.
    const served = tokenServedTo(reach);
    if (served.length === 0) {
      // Only the first status is asked every form of the header.
      if (target.readsFirstStatus) return judgeUnseenHeader(context);
      return skip(
        'no request of this run was served with any credentials, so the answers cannot show whether the Authorization header arrives',
      );
    }
    // The same valid credentials on every path: answered there exactly as a request with no header is, the header was lost.
    const pairs = [
      { asked: target.status(), without: target.status({ credentials: 'no-header' }) },
      ...(target.readsFirstStatus ? [{ asked: target.selfservice(), without: target.selfservice('no-header') }] : []),
      ...(await langRequests(target)).map((request) => ({
        asked: target.status(request),
        without: target.status({ credentials: 'no-header' }),
      })),
    ];
    for (const pair of pairs) {
      const [asked, without] = await Promise.all([pair.asked.catch(() => undefined), pair.without.catch(() => undefined)]);
      if (!asked || !without) continue;
      const classified = answer(asked);
      // A 404 is a route missing, which the header cannot change; a refusal is what a lost header gets.
      const { status } = asked.response;
      const refusal = status === 401 || status === 403 || (status >= 200 && status < 300);
      const lost = classified.origin.kind === 'api' && classified.meaning.kind === 'refused' && refusal && sameAnswer(asked, without);
      check['HOST-AUTHORIZATION-PASSED'](
        outcome(
          !lost,
          `the Authorization header reaches the application for GET ${asked.request.path}`,
          `an answer other than the one a request without an Authorization header gets, since the token is served to: ${served.map(variantLabel).join('; ')}`,
          lost ? `the answer a request without the header gets: ${describeResponse(asked)}` : describeResponse(asked),
        ),
        asked,
      );
    }
  },
});
