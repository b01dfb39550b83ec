import type { Config } from '../config/settings.js';

/** What decides which requests a run sends, and all a judge needs to know of its target: no address, no secret. */
export type RequestChoices = Pick<Config, 'statusId' | 'lang' | 'missingLang' | 'profile' | 'concurrency'>;

/** The part of the settings a judge is handed. */
export function requestChoices({ statusId, lang, missingLang, profile, concurrency }: RequestChoices): RequestChoices {
  return {
    statusId,
    concurrency,
    ...(lang === undefined ? {} : { lang }),
    ...(missingLang === undefined ? {} : { missingLang }),
    ...(profile === undefined ? {} : { profile }),
  };
}
