import { handedOut } from '../../src/classify/types.js';
import { accepted } from '../../src/judge/checks/auth.js';
import { nameIs } from '../../src/judge/checks/status.js';
import { scenario } from '../../src/judge/scenario.js';
import { FIRST_STATUS_ID } from '../../src/record/target.js';

scenario({
  id: 'status-open-first',
  requirements: ['STATUS-OPEN-FIRST'],
  title: 'the first status is "Open"',
  async run({ target, check, skip, answer }) {
    const first = await target.status({ id: FIRST_STATUS_ID });
    const plain = await target.status();
    if (!handedOut(answer(first), 'status') && !handedOut(answer(plain), 'status')) {
      skip('the valid token is served no status at all, so whether the first one exists cannot be seen (see AUTH-TOKEN-ACCEPTED)', first);
    }
    if (check['STATUS-OPEN-FIRST'](accepted(first, answer(first), `status ${FIRST_STATUS_ID} exists`), first)) {
      check['STATUS-OPEN-FIRST'](nameIs(first, 'Open', `status ${FIRST_STATUS_ID} is named "Open"`), first);
    }
  },
});
