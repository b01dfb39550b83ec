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

/**
 * The statuses and languages as report.json and recording.json keep them: the first as statusId and lang, which a run
 * of one has alone, and every one as statusIds and langs when there are several.
 */
export interface WrittenChoices {
  statusId: number;
  statusIds?: number[];
  lang?: string;
  langs?: string[];
}

export function toWrittenChoices({ statusId, lang }: Pick<RequestChoices, 'statusId' | 'lang'>): WrittenChoices {
  const [first = 1] = statusId;
  const [language] = lang ?? [];
  return {
    statusId: first,
    ...(statusId.length > 1 ? { statusIds: [...statusId] } : {}),
    ...(language === undefined ? {} : { lang: language }),
    ...(lang && lang.length > 1 ? { langs: [...lang] } : {}),
  };
}

/** The statuses and languages a report or a recording was made with, read back from how they keep them. */
export function fromWrittenChoices({ statusId, statusIds, lang, langs }: WrittenChoices): {
  statusId: RequestChoices['statusId'];
  lang: RequestChoices['lang'];
} {
  return { statusId: statusIds ?? [statusId], lang: langs ?? (lang === undefined ? undefined : [lang]) };
}
