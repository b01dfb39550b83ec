import { describeResponse, show } from '../../src/judge/checks/outcome.js';
import { timestampUnit } from '../../src/judge/checks/timestamps.js';
import { scenario } from '../../src/judge/scenario.js';
import { UNKNOWN_STATUS_ID } from '../../src/record/target.js';
import { dataOf } from '../../src/exchange/json-body.js';
import { skipUnlessStatusSucceeded } from '../../src/judge/status-answers.js';

scenario({
  id: 'status-observations',
  requirements: ['STATUS-AUTO-CLOSE-VALUES', 'STATUS-TIMESTAMP-UNIT'],
  title: 'what auto_close and the timestamps hold, where the document is silent',
  per: 'status',
  async run({ target, observe, skip, answer }) {
    const plain = await target.status();
    skipUnlessStatusSucceeded({ answer, skip }, plain);
    const data = dataOf(plain) ?? skip('the status response has no data object to look at');
    observe['STATUS-AUTO-CLOSE-VALUES']('auto_close of the status', show(data.auto_close), plain);
    observe['STATUS-TIMESTAMP-UNIT']('created_at', timestampUnit(data.created_at), plain);
    observe['STATUS-TIMESTAMP-UNIT']('updated_at', timestampUnit(data.updated_at), plain);
  },
});

scenario({
  id: 'status-unknown-id',
  requirements: ['STATUS-UNKNOWN-ID'],
  title: 'how a status id that does not exist is answered',
  async run({ target, observe }) {
    const unknown = await target.status({ id: UNKNOWN_STATUS_ID });
    observe['STATUS-UNKNOWN-ID'](`answer for status ${UNKNOWN_STATUS_ID}`, describeResponse(unknown), unknown);
  },
});
