import { accepted } from '../../src/judge/checks/auth.js';
import { translationsUnchanged, untranslatedFieldsUnchanged } from '../../src/judge/checks/lang.js';
import { describeResponse, show } from '../../src/judge/checks/outcome.js';
import { nameIs } from '../../src/judge/checks/status.js';
import { scenario } from '../../src/judge/scenario.js';
import { dataOf, translationsOf } from '../../src/exchange/json-body.js';
import { skipUnlessStatusSucceeded } from '../../src/judge/status-answers.js';

scenario({
  id: 'lang-replaces-name',
  requirements: ['LANG-TRANSLATION-REPLACES', 'LANG-KEEPS-TRANSLATIONS', 'LANG-OTHER-FIELDS-UNCHANGED'],
  title: 'lang with a translation replaces name and keeps everything else',
  per: 'language',
  async run({ target, check, skip, answer }) {
    const plain = await target.status();
    skipUnlessStatusSucceeded({ answer, skip }, plain);
    if (!dataOf(plain)) skip('the status response has no data object (see ENV-DATA-OBJECT)');
    const wanted = target.lang;
    const translation =
      (await target.translatedLocale()) ??
      skip(
        wanted === undefined
          ? `status ${target.statusId} lists no translation to ask for; pass --status-id of a status that has one`
          : `status ${target.statusId} lists no translation for --lang ${wanted}`,
      );
    const locale = String(translation.locale);
    const asked = await target.status({ lang: locale });
    check['LANG-KEEPS-TRANSLATIONS'](translationsUnchanged(plain, asked, `with lang=${locale}, translations is still returned`), asked);
    check['LANG-OTHER-FIELDS-UNCHANGED'](
      untranslatedFieldsUnchanged(plain, asked, `with lang=${locale}, untranslated fields are unchanged`),
      asked,
    );
    const replaced = nameIs(asked, String(translation.name), `with lang=${locale}, name is the "${locale}" translation`);
    // A translation named like the default content: an answer that ignored lang would pass just the same.
    const defaultName = dataOf(plain)?.name;
    if (replaced.ok && translation.name === defaultName) {
      const other = translationsOf(plain)?.find((entry) => typeof entry.name === 'string' && entry.name !== defaultName)?.locale;
      skip(
        `the "${locale}" translation has the default name (${show(defaultName)}), so lang=${locale} cannot show that it replaces name; pass --lang ${other === undefined ? 'with a locale whose translated name differs' : String(other)}`,
        asked,
      );
    }
    check['LANG-TRANSLATION-REPLACES'](replaced, asked);
  },
});

scenario({
  id: 'lang-missing-translation',
  requirements: ['LANG-MISSING-FALLBACK', 'LANG-KEEPS-TRANSLATIONS'],
  title: 'lang naming a locale with no translation: what comes back',
  per: 'status',
  async run({ target, check, observe, skip, answer }) {
    const plain = await target.status();
    skipUnlessStatusSucceeded({ answer, skip }, plain);
    if (!dataOf(plain)) skip('the status response has no data object (see ENV-DATA-OBJECT)');
    const locale = (await target.missingLocale()) ?? skip('the status lists a translation for every two-letter code');
    const asked = await target.status({ lang: locale });
    if (!accepted(asked, answer(asked), 'served').ok) {
      observe['LANG-MISSING-FALLBACK'](`lang=${locale} (no translation) is not answered with a success`, describeResponse(asked), asked);
      return;
    }
    const name = dataOf(asked)?.name;
    const defaultName = dataOf(plain)?.name;
    const fallback = name === defaultName ? 'the default name' : 'a name other than the default';
    observe['LANG-MISSING-FALLBACK'](
      `lang=${locale} (no translation) answers with ${fallback}`,
      `data.name: ${show(name)} (default: ${show(defaultName)})`,
      asked,
    );
    check['LANG-KEEPS-TRANSLATIONS'](
      translationsUnchanged(plain, asked, `with lang=${locale} (no translation), translations is still returned`),
      asked,
    );
  },
});
