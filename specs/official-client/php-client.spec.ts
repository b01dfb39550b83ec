import { isObject } from '../../src/exchange/json-body.js';
import { clientDecode, dataArray, exactly200, intCasts, statusNotError, statusSet } from '../../src/judge/checks/php-client.js';
import { scenario } from '../../src/judge/scenario.js';
import { OFFICIAL_CLIENT_REQUEST } from '../../src/record/plan.js';

// What the vendor's PHP client makes of the answer to its own request (getStatus), judged with --profile official-client.

scenario({
  id: 'official-client-response',
  profile: 'official-client',
  requirements: ['CLIENT-PHP-JSON-DECODE', 'CLIENT-PHP-HTTP-200'],
  title: "the official client's getStatus request is answered with HTTP 200 and a body json_decode reads",
  async run({ target, check }) {
    const answer = await target.status(OFFICIAL_CLIENT_REQUEST);
    const decoded = clientDecode(answer, "json_decode reads the answer to the official client's request");
    check['CLIENT-PHP-JSON-DECODE'](decoded.outcome, answer);
    check['CLIENT-PHP-HTTP-200'](exactly200(answer, "the answer to the official client's request is HTTP 200"), answer);
  },
});

scenario({
  id: 'official-client-envelope',
  profile: 'official-client',
  requirements: ['CLIENT-PHP-STATUS-SET', 'CLIENT-PHP-STATUS-NOT-ERROR', 'CLIENT-PHP-DATA-ARRAY', 'CLIENT-PHP-INT-CAST'],
  title: 'the decoded answer has a status that is not "error", and a data the client builds its Status from',
  async run({ target, check, skip }) {
    const answer = await target.status(OFFICIAL_CLIENT_REQUEST);
    const decoded = clientDecode(answer, 'json_decode');
    const body = decoded.ok
      ? decoded.value
      : skip('json_decode throws on this answer first, so the client reads nothing of it (see CLIENT-PHP-JSON-DECODE)', answer);
    check['CLIENT-PHP-STATUS-SET'](statusSet(body, 'the decoded answer has status set'), answer);
    check['CLIENT-PHP-STATUS-NOT-ERROR'](statusNotError(body, 'status of the answer is not "error"'), answer);
    if (!check['CLIENT-PHP-DATA-ARRAY'](dataArray(body, 'data of the answer is a JSON object'), answer)) return;
    const data =
      isObject(body) && isObject(body.data) ? body.data : skip('data is a JSON list: no field of it is a field of the Status', answer);
    check['CLIENT-PHP-INT-CAST'](intCasts(data, 'the int-cast fields of the status keep their value'), answer);
  },
});
