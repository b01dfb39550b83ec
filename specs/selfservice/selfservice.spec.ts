import { accepted, refused } from '../../src/judge/checks/auth.js';
import { missingListingControl } from '../../src/judge/checks/control.js';
import { bodyIsJson } from '../../src/judge/checks/envelope.js';
import { show } from '../../src/judge/checks/outcome.js';
import { variantLabel } from '../../src/exchange/credentials.js';
import { scenario } from '../../src/judge/scenario.js';
import { isObject, jsonBody } from '../../src/exchange/json-body.js';

scenario({
  id: 'selfservice-reference-call',
  requirements: ['SELFSERVICE-ACCEPTED'],
  title: 'the reference call succeeds with valid credentials',
  async run({ target, check, answer }) {
    const response = await target.selfservice();
    check['SELFSERVICE-ACCEPTED'](bodyIsJson(response, 'the selfservice type body is JSON'), response);
    check['SELFSERVICE-ACCEPTED'](
      accepted(response, answer(response), 'GET /api/selfservice/type with valid credentials succeeds', 'listing'),
      response,
    );
  },
});

scenario({
  id: 'selfservice-refused',
  requirements: ['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'],
  title: 'the reference call fails without valid credentials',
  async run(context) {
    const valid = await context.target.selfservice();
    const uncontrolled = missingListingControl(context.reach, valid);
    if (uncontrolled) context.skip(uncontrolled, valid);
    for (const credentials of ['no-header', 'wrong-token'] as const) {
      const response = await context.target.selfservice(credentials);
      context.check['SELFSERVICE-REFUSED-WITHOUT-CREDENTIALS'](
        refused(response, context.answer(response), `GET /api/selfservice/type with ${variantLabel(credentials)} fails`, 'listing'),
        response,
      );
    }
  },
});

scenario({
  id: 'selfservice-shape',
  requirements: ['SELFSERVICE-SHAPE'],
  title: 'what the selfservice type listing looks like, where the document is silent',
  async run({ target, observe }) {
    const response = await target.selfservice();
    const body = jsonBody(response);
    const summary = isObject(body)
      ? `top-level fields ${show(Object.keys(body))}; data is ${Array.isArray(body.data) ? `an array of ${body.data.length}` : typeof body.data}`
      : `not a JSON object: ${show(body)}`;
    observe['SELFSERVICE-SHAPE']('shape of the selfservice type listing', summary, response);
  },
});
