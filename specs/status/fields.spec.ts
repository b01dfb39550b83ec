import {
  about,
  distinctServed,
  statusField,
  statusIdIs,
  translationField,
  translationsBelongToStatus,
  type StatusField,
} from '../../src/judge/checks/status.js';

import { everyStatusAnswer, skipUnlessStatusSucceeded } from '../../src/judge/status-answers.js';
import { askedLang } from '../../src/judge/checks/outcome.js';
import { scenario } from '../../src/judge/scenario.js';
import type { RequirementId } from '../../src/requirements/catalog.js';
import type { Exchange } from '../../src/exchange/exchange.js';
import { dataOf } from '../../src/exchange/json-body.js';

const FIELD_REQUIREMENTS = [
  ['name', 'STATUS-NAME'],
  ['colour', 'STATUS-COLOUR'],
  ['auto_close', 'STATUS-AUTO-CLOSE'],
  ['order', 'STATUS-ORDER'],
  ['created_at', 'STATUS-CREATED-AT'],
  ['updated_at', 'STATUS-UPDATED-AT'],
  ['translations', 'STATUS-TRANSLATIONS'],
] as const satisfies readonly (readonly [StatusField, RequirementId])[];

scenario({
  id: 'status-fields',
  requirements: [
    'STATUS-ID',
    'STATUS-NAME',
    'STATUS-COLOUR',
    'STATUS-AUTO-CLOSE',
    'STATUS-ORDER',
    'STATUS-CREATED-AT',
    'STATUS-UPDATED-AT',
    'STATUS-TRANSLATIONS',
  ],
  title: 'every ticket status served has its documented fields, and is the one asked for',
  per: 'status',
  async run({ target, check, skip, answer }) {
    const plain = await target.status();
    skipUnlessStatusSucceeded({ answer, skip }, plain);
    if (!dataOf(plain)) skip('the status response has no data object (see ENV-JSON and ENV-DATA-OBJECT)');
    const served = distinctServed(await everyStatusAnswer({ target, answer })).filter(
      ({ exchange }) => exchange !== plain && dataOf(exchange),
    );
    for (const { exchange, requestedId, label } of [{ exchange: plain, requestedId: target.statusId, label: undefined }, ...served]) {
      check['STATUS-ID'](about(statusField(exchange, 'id'), label), exchange);
      check['STATUS-ID'](about(statusIdIs(exchange, requestedId, answer(exchange)), label), exchange);
      // Whether lang keeps translations is LANG-KEEPS-TRANSLATIONS' business.
      const withLang = askedLang(exchange) !== null;
      for (const [field, requirement] of FIELD_REQUIREMENTS) {
        if (!(withLang && field === 'translations')) check[requirement](about(statusField(exchange, field), label), exchange);
      }
    }
  },
});

scenario({
  id: 'translation-entries',
  requirements: ['TRANSLATION-STATUS-ID', 'TRANSLATION-NAME', 'TRANSLATION-LOCALE'],
  title: 'every translation entry served has its documented fields',
  per: 'status',
  async run({ target, check, skip, answer }) {
    const plain = await target.status();
    skipUnlessStatusSucceeded({ answer, skip }, plain);
    // Every entry, objects or not: an entry that is not a translation object fails, it does not go unseen.
    const entriesOf = (exchange: Exchange): unknown[] | undefined => {
      const translations = dataOf(exchange)?.translations;
      return Array.isArray(translations) ? translations : undefined;
    };
    const translations = entriesOf(plain) ?? skip('the status has no translations array (see STATUS-TRANSLATIONS)');
    if (translations.length === 0) {
      skip(`status ${target.statusId} lists no translations; pass --status-id of a status that has one`);
    }
    // Another status served in place of the one asked for fails STATUS-ID; its translations are its own business.
    const served = distinctServed(await everyStatusAnswer({ target, answer })).filter(
      ({ exchange, requestedId }) => exchange !== plain && dataOf(exchange)?.id === requestedId && (entriesOf(exchange)?.length ?? 0) > 0,
    );
    for (const { exchange, requestedId, label } of [{ exchange: plain, requestedId: target.statusId, label: undefined }, ...served]) {
      check['TRANSLATION-STATUS-ID'](about(translationField(exchange, 'status_id'), label), exchange);
      check['TRANSLATION-STATUS-ID'](about(translationsBelongToStatus(exchange, requestedId), label), exchange);
      check['TRANSLATION-NAME'](about(translationField(exchange, 'name'), label), exchange);
      check['TRANSLATION-LOCALE'](about(translationField(exchange, 'locale'), label), exchange);
    }
  },
});
