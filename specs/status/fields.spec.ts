import { statusField, statusIdIs, translationField, translationsBelongToStatus, translationsOf } from '../../src/assertions/status.js';
import { dataOf } from '../../src/assertions/outcome.js';
import { scenario } from '../../src/harness/scenario.js';

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
  title: 'every ticket status field has its documented type',
  async run({ target, check, skip }) {
    const plain = await target.status();
    if (!dataOf(plain)) skip('the status response has no data object (see ENV-JSON and ENV-DATA-OBJECT)');
    check('STATUS-ID', statusField(plain, 'id'), plain);
    check('STATUS-ID', statusIdIs(plain, target.settings.statusId), plain);
    check('STATUS-NAME', statusField(plain, 'name'), plain);
    check('STATUS-COLOUR', statusField(plain, 'colour'), plain);
    check('STATUS-AUTO-CLOSE', statusField(plain, 'auto_close'), plain);
    check('STATUS-ORDER', statusField(plain, 'order'), plain);
    check('STATUS-CREATED-AT', statusField(plain, 'created_at'), plain);
    check('STATUS-UPDATED-AT', statusField(plain, 'updated_at'), plain);
    check('STATUS-TRANSLATIONS', statusField(plain, 'translations'), plain);
  },
});

scenario({
  id: 'translation-entries',
  requirements: ['TRANSLATION-STATUS-ID', 'TRANSLATION-NAME', 'TRANSLATION-LOCALE'],
  title: 'every translation entry has its documented fields',
  async run({ target, check, skip }) {
    const plain = await target.status();
    const translations = translationsOf(plain) ?? skip('the status has no translations array (see STATUS-TRANSLATIONS)');
    if (translations.length === 0) {
      skip(`status ${target.settings.statusId} lists no translations; pass --status-id of a status that has one`);
    }
    check('TRANSLATION-STATUS-ID', translationField(plain, 'status_id'), plain);
    check('TRANSLATION-STATUS-ID', translationsBelongToStatus(plain, target.settings.statusId), plain);
    check('TRANSLATION-NAME', translationField(plain, 'name'), plain);
    check('TRANSLATION-LOCALE', translationField(plain, 'locale'), plain);
  },
});
