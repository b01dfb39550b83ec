import { accepted, refused } from '../../src/judge/checks/auth.js';
import { tokenServedTo } from '../../src/classify/reach.js';
import { whoAnswered } from '../../src/classify/words.js';
import { missingStatusControl } from '../../src/judge/checks/control.js';
import { describeResponse, outcome } from '../../src/judge/checks/outcome.js';
import { validator } from '../../src/validators/schemas.js';
import { variantLabel, type CredentialVariant } from '../../src/exchange/credentials.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import {
  FRONT_CONTROLLER_WITH_TOKEN,
  FRONT_CONTROLLER_WITHOUT_HEADER,
  INVALID_HEADER_VARIANTS,
  langRequests,
  nearMissesOf,
  PASSWORD_VARIANTS,
  sentVariants,
  TOKEN_AS_PASSWORD_VARIANTS,
} from '../../src/record/plan.js';
import { isServed, type Classified } from '../../src/classify/types.js';
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
    // The web server's own refusal page is named as such: Apache's or nginx's 401 page, not the application's words.
    const shapeOf = (response: Exchange): string => {
      const { origin } = answer(response);
      if (response.response.json.ok && isErrorEnvelope(response.response.json.value)) return 'error envelope';
      return origin.kind === 'front' ? `${whoAnswered(origin)}'s own page, not an error envelope` : 'not an error envelope';
    };
    for (const credentials of ['wrong-token', 'no-header', 'bad-base64'] as const) {
      const response = await target.status({ credentials });
      observe['AUTH-ERROR-RESPONSE'](`answer to ${variantLabel(credentials)} (${shapeOf(response)})`, describeResponse(response), response);
    }
    // The same through the front controller (a recording made before it was asked holds none).
    const through = await target.status(FRONT_CONTROLLER_WITHOUT_HEADER).catch(() => undefined);
    if (through) {
      const words = `answer to ${variantLabel('no-header')} through ${through.request.path} (${shapeOf(through)})`;
      observe['AUTH-ERROR-RESPONSE'](words, describeResponse(through), through);
    }
  },
});

/** Two answers alike: the same HTTP code and the same body. */
const sameAnswer = (a: Exchange, b: Exchange): boolean =>
  a.response.status === b.response.status && a.response.bodyText === b.response.bodyText;

/**
 * A refusal a lost header can get: the API's own, with a code that can refuse credentials (a 404 is a route missing,
 * which the header cannot change), or a 401 page that no known front signs.
 */
function refusedCredentials(asked: Exchange, answer: (exchange: Exchange) => Classified): boolean {
  const { status } = asked.response;
  const { origin, meaning } = answer(asked);
  if (origin.kind === 'unknown') return status === 401;
  return origin.kind === 'api' && meaning.kind === 'refused' && (status === 401 || status === 403 || (status >= 200 && status < 300));
}

/**
 * Nothing served. Only a wrong token answered otherwise than no header shows the header is lost: the API tells the two
 * apart, so a wrong token would have got that other answer. Every form of the header answered as none cannot tell a
 * header stripped on the way from a wrong token (an API may answer every refusal alike), and leaves this unjudged.
 */
async function judgeUnseenHeader(
  { target, check, answer, skip }: ScenarioContext<'HOST-AUTHORIZATION-PASSED'>,
  note: () => void,
  viaFrontController: Exchange | undefined,
): Promise<void> {
  const [valid, without, wrong] = await Promise.all(
    (['valid', 'no-header', 'wrong-token'] as const).map((credentials) => target.status({ credentials }).catch(() => undefined)),
  );
  const likeNone = valid && without && refusedCredentials(valid, answer) && sameAnswer(valid, without);
  if (!likeNone) {
    return skip(
      'no request of this run was served with any credentials, so the answers cannot show whether the Authorization header arrives',
      viaFrontController,
    );
  }
  if (!wrong || !refusedCredentials(wrong, answer) || sameAnswer(wrong, without)) {
    return skip(
      'the token and a wrong token got the answer a request without an Authorization header gets, and nothing was served: a header stripped on the way and a wrong token look alike, so whether the web server passes the header cannot be judged (see the diagnosis)',
      viaFrontController ?? valid,
    );
  }
  note();
  check['HOST-AUTHORIZATION-PASSED'](
    outcome(
      false,
      'the Authorization header carrying the token reaches the application',
      `an answer other than the one a request without the header gets, as a wrong token got one: ${describeResponse(wrong)}`,
      `the answer a request without the header gets: ${describeResponse(valid)}; the API tells a wrong token from a missing header, so the header carrying the token did not arrive as it was sent`,
    ),
    valid,
  );
}

/**
 * Apache's own 404 page on the API path while /index.php/api/... reaches the application: the application's .htaccess,
 * which routes /api/... and passes the header on, is not applied (mod_rewrite off, or AllowOverride None).
 */
function htaccessIgnored(valid: Exchange, viaFrontController: Exchange | undefined, answer: (exchange: Exchange) => Classified): boolean {
  const { origin } = answer(valid);
  const webServerPage = origin.kind === 'front' && origin.front === 'web-server' && origin.vendor === 'Apache';
  return (
    webServerPage && valid.response.status === 404 && viaFrontController !== undefined && answer(viaFrontController).origin.kind === 'api'
  );
}

/**
 * The same valid credentials on every path: answered there exactly as a request with no header is, the header was lost.
 * `served` names the requests whose token was served, which show the token itself is right.
 */
async function judgeEveryPath(
  { target, check, answer }: ScenarioContext<'HOST-AUTHORIZATION-PASSED'>,
  served: readonly string[],
): Promise<void> {
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
    const lost = refusedCredentials(asked, answer) && sameAnswer(asked, without);
    check['HOST-AUTHORIZATION-PASSED'](
      outcome(
        !lost,
        `the Authorization header reaches the application for GET ${asked.request.path}`,
        `an answer other than the one a request without an Authorization header gets, since the token is served to: ${served.join('; ')}`,
        lost ? `the answer a request without the header gets: ${describeResponse(asked)}` : describeResponse(asked),
      ),
      asked,
    );
  }
}

scenario({
  id: 'hosting-passes-authorization',
  requirements: ['HOST-AUTHORIZATION-PASSED'],
  title: 'the web server passes the Authorization header through to the application',
  per: 'status',
  async run(context) {
    const { target, check, answer, reach, observe, skip } = context;
    // A request that got no answer ends the scenario here, as in every other one.
    const valid = await target.status();
    // The token through the front controller, asked for the first status (a recording made before it was asked holds
    // none): it reaches the application even where rewriting is broken, and served there it shows the token is right.
    // Noted beside a verdict; a scenario left unjudged names it with the reason.
    const viaFrontController = await target.status(FRONT_CONTROLLER_WITH_TOKEN).catch(() => undefined);
    const note = (): void => {
      if (viaFrontController) {
        const words = `GET ${viaFrontController.request.path} with ${variantLabel('valid')}`;
        // What it meant, not its body: the body is the status' own, which other requirements judge, and a change in it
        // is no change in how the header is passed.
        const meant = `HTTP ${viaFrontController.response.status}, ${answer(viaFrontController).meaning.kind}`;
        observe['HOST-AUTHORIZATION-PASSED'](words, meant, viaFrontController);
      }
    };
    if (htaccessIgnored(valid, viaFrontController, answer)) {
      note();
      check['HOST-AUTHORIZATION-PASSED'](
        outcome(
          false,
          "the web server applies the application's .htaccess, which routes /api/... to the application and passes the Authorization header on",
          `the application's answer, as GET ${viaFrontController?.request.path ?? ''} got it (the hosting rule: mod_rewrite enabled, AllowOverride All)`,
          `Apache's own 404 page: ${describeResponse(valid)}`,
        ),
        valid,
      );
      return;
    }
    // The token served in any form, on any path, shows the header arrives; without that, a refusal cannot tell a lost
    // header from a wrong token.
    const servedThrough = viaFrontController && answer(viaFrontController).origin.kind === 'api' && isServed(answer(viaFrontController));
    const served = [
      ...tokenServedTo(reach).map(variantLabel),
      ...(servedThrough ? [`${variantLabel('valid')} through /index.php/api/...`] : []),
    ];
    if (served.length === 0) {
      // Only the first status is asked every form of the header.
      if (target.readsFirstStatus) return judgeUnseenHeader(context, note, viaFrontController);
      return skip(
        'no request of this run was served with any credentials, so the answers cannot show whether the Authorization header arrives',
      );
    }
    note();
    await judgeEveryPath(context, served);
  },
});
