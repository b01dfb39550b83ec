import { accepted } from '../../src/assertions/auth.js';
import { nameIs } from '../../src/assertions/status.js';
import { scenario } from '../../src/harness/scenario.js';
import { FIRST_STATUS_ID } from '../../src/harness/target.js';

scenario({
  id: 'status-open-first',
  requirements: ['STATUS-OPEN-FIRST'],
  title: 'the first status is "Open"',
  async run({ target, check }) {
    const first = await target.status({ id: FIRST_STATUS_ID });
    if (check('STATUS-OPEN-FIRST', accepted(first, `status ${FIRST_STATUS_ID} exists`), first)) {
      check('STATUS-OPEN-FIRST', nameIs(first, 'Open', `status ${FIRST_STATUS_ID} is named "Open"`), first);
    }
  },
});
