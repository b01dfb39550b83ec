import { bodyIsJson, envelopeField, noByteOrderMark } from '../../src/judge/checks/envelope.js';
import { about, distinctServed } from '../../src/judge/checks/status.js';
import { askedLang } from '../../src/judge/checks/outcome.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import { everyStatusAnswer, skipUnlessStatusSucceeded } from '../../src/judge/status-answers.js';
import { scenario, type ScenarioContext } from '../../src/judge/scenario.js';

/** The requirements every envelope answers to. */
type EnvelopeRequirement = 'ENV-JSON' | 'ENV-STATUS-SUCCESS' | 'ENV-MESSAGE-NULL' | 'ENV-DATA-OBJECT';

function checkEnvelope({ check }: ScenarioContext<EnvelopeRequirement>, response: Exchange, which: string, label?: string): void {
  if (!check['ENV-JSON'](about(bodyIsJson(response, `the ${which} body is JSON`), label), response)) return;
  check['ENV-STATUS-SUCCESS'](about(envelopeField(response, 'status', `status of the ${which} is "success"`), label), response);
  check['ENV-MESSAGE-NULL'](about(envelopeField(response, 'message', `message of the ${which} is null`), label), response);
  check['ENV-DATA-OBJECT'](about(envelopeField(response, 'data', `data of the ${which} is an object`), label), response);
}

function skipUnlessSuccess({ skip }: ScenarioContext, response: Exchange, which: string): void {
  const { status } = response.response;
  if (status < 200 || status >= 300) skip(`the ${which} was HTTP ${status}, not a success`, response);
}

/** Every other status answer that served a status, lang answers apart or alone, each distinct body once. */
async function otherServed(context: ScenarioContext, plain: Exchange, lang: boolean) {
  const answers = distinctServed(await everyStatusAnswer(context));
  return answers.filter(({ exchange }) => exchange !== plain && (askedLang(exchange) !== null) === lang);
}

scenario({
  id: 'envelope-status',
  requirements: ['ENV-JSON', 'ENV-NO-BOM', 'ENV-STATUS-SUCCESS', 'ENV-MESSAGE-NULL', 'ENV-DATA-OBJECT', 'ENV-CONTENT-TYPE'],
  title: 'a ticket status comes in the success envelope, whatever request it answered',
  per: 'status',
  async run(context) {
    const plain = await context.target.status();
    skipUnlessStatusSucceeded(context, plain);
    checkEnvelope(context, plain, 'status response');
    // Only JSON can be said to carry a byte order mark before it.
    if (plain.response.json.ok) context.check['ENV-NO-BOM'](noByteOrderMark(plain, 'the status response starts with the JSON'), plain);
    for (const { exchange, label } of await otherServed(context, plain, false)) checkEnvelope(context, exchange, 'status response', label);
    context.observe['ENV-CONTENT-TYPE'](
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
  per: 'status',
  async run(context) {
    skipUnlessStatusSucceeded(context, await context.target.status());
    const [translation = context.skip('the status lists no translation to ask for')] = await context.target.translatedLocales();
    const asked = await context.target.status({ lang: String(translation.locale) });
    skipUnlessSuccess(context, asked, `response with lang=${String(translation.locale)}`);
    checkEnvelope(context, asked, `response with lang=${String(translation.locale)}`);
    for (const { exchange, label } of await otherServed(context, asked, true)) checkEnvelope(context, exchange, 'status response', label);
  },
});
