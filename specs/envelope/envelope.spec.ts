import { bodyIsJson, envelopeField } from '../../src/assertions/envelope.js';
import type { Exchange } from '../../src/harness/exchange.js';
import { scenario, type ScenarioContext } from '../../src/harness/scenario.js';

function checkEnvelope({ check, skip }: ScenarioContext, response: Exchange, which: string): void {
  const { status } = response.response;
  if (status < 200 || status >= 300) skip(`the ${which} was HTTP ${status}, not a success (see AUTH-TOKEN-ACCEPTED)`);
  if (!check('ENV-JSON', bodyIsJson(response, `the ${which} body is JSON`), response)) return;
  check('ENV-STATUS-SUCCESS', envelopeField(response, 'status', `status of the ${which} is "success"`), response);
  check('ENV-MESSAGE-NULL', envelopeField(response, 'message', `message of the ${which} is null`), response);
  check('ENV-DATA-OBJECT', envelopeField(response, 'data', `data of the ${which} is an object`), response);
}

scenario({
  id: 'envelope-status',
  requirements: ['ENV-JSON', 'ENV-STATUS-SUCCESS', 'ENV-MESSAGE-NULL', 'ENV-DATA-OBJECT', 'ENV-CONTENT-TYPE'],
  title: 'a ticket status comes in the success envelope',
  async run(context) {
    const plain = await context.target.status();
    checkEnvelope(context, plain, 'status response');
    context.observe(
      'ENV-CONTENT-TYPE',
      'Content-Type of the status response',
      plain.response.headers['content-type'] ?? 'none sent',
      plain,
    );
  },
});

scenario({
  id: 'envelope-lang',
  requirements: ['ENV-JSON', 'ENV-STATUS-SUCCESS', 'ENV-MESSAGE-NULL', 'ENV-DATA-OBJECT'],
  title: 'a translated ticket status comes in the success envelope too',
  async run(context) {
    const translation = (await context.target.translatedLocale()) ?? context.skip('the status lists no translation to ask for');
    const asked = await context.target.status({ lang: String(translation.locale) });
    checkEnvelope(context, asked, `response with lang=${String(translation.locale)}`);
  },
});
