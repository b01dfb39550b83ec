import { accepted, refused } from '../../src/assertions/auth.js';
import { describeResponse } from '../../src/assertions/outcome.js';
import { validator } from '../../src/assertions/schemas.js';
import { variantLabel, type CredentialVariant } from '../../src/harness/credentials.js';
import { INVALID_HEADER_VARIANTS, PASSWORD_VARIANTS } from '../../src/harness/plan.js';
import { scenario } from '../../src/harness/scenario.js';

scenario({
  id: 'auth-valid-token',
  requirements: ['AUTH-TOKEN-ACCEPTED'],
  title: 'the API token as Basic user name is accepted',
  async run({ target, check }) {
    const response = await target.status();
    check('AUTH-TOKEN-ACCEPTED', accepted(response, `GET with ${variantLabel('valid')} succeeds`), response);
  },
});

scenario({
  id: 'auth-password-ignored',
  requirements: ['AUTH-PASSWORD-IGNORED'],
  title: 'the password part is ignored',
  async run({ target, check }) {
    for (const credentials of PASSWORD_VARIANTS) {
      const response = await target.status({ credentials });
      check('AUTH-PASSWORD-IGNORED', accepted(response, `GET with ${variantLabel(credentials)} succeeds`), response);
    }
  },
});

const refusals: { id: string; requirement: string; title: string; variants: CredentialVariant[] }[] = [
  {
    id: 'auth-wrong-token',
    requirement: 'AUTH-WRONG-TOKEN-REFUSED',
    title: 'a wrong token fails authentication',
    variants: ['wrong-token'],
  },
  {
    id: 'auth-missing-header',
    requirement: 'AUTH-MISSING-HEADER-REFUSED',
    title: 'no Authorization header fails authentication',
    variants: ['no-header'],
  },
  {
    id: 'auth-invalid-headers',
    requirement: 'AUTH-INVALID-HEADER-REFUSED',
    title: 'invalid Authorization headers fail authentication',
    variants: INVALID_HEADER_VARIANTS,
  },
];

for (const refusal of refusals) {
  scenario({
    id: refusal.id,
    requirements: [refusal.requirement],
    title: refusal.title,
    async run({ target, check }) {
      for (const credentials of refusal.variants) {
        const response = await target.status({ credentials });
        check(refusal.requirement, refused(response, `GET with ${variantLabel(credentials)} fails`), response);
      }
    },
  });
}

scenario({
  id: 'auth-error-response',
  requirements: ['AUTH-ERROR-RESPONSE'],
  title: 'how failed authentication is answered, where the document is silent',
  async run({ target, observe }) {
    const isErrorEnvelope = validator('error');
    for (const credentials of ['wrong-token', 'no-header', 'bad-base64'] as const) {
      const response = await target.status({ credentials });
      const shape = response.response.json.ok && isErrorEnvelope(response.response.json.value) ? 'error envelope' : 'not an error envelope';
      observe('AUTH-ERROR-RESPONSE', `answer to ${variantLabel(credentials)} (${shape})`, describeResponse(response), response);
    }
  },
});
