import type { Config } from '../config/settings.js';
import type { HttpClientOptions } from '../http/client.js';

/** What decides which requests a run sends, and all a judge needs to know of its target: no address, no secret. */
export type RequestChoices = Pick<Config, 'statusId' | 'lang' | 'missingLang' | 'concurrency'>;

/** Everything recording a target takes: what the client takes, all of it given, and the choices the judge is handed. */
export interface TargetSettings
  extends RequestChoices, Required<Omit<HttpClientOptions, 'scanner' | 'ca'>>, Pick<HttpClientOptions, 'ca'> {}

/** One target to record and judge, and its label when a spec run judges several. */
export interface TargetRun {
  settings: TargetSettings;
  label?: string;
}

/** The part of the settings a judge is handed. */
export function requestChoices({ statusId, lang, missingLang, concurrency }: RequestChoices): RequestChoices {
  return { statusId, concurrency, ...(lang === undefined ? {} : { lang }), ...(missingLang === undefined ? {} : { missingLang }) };
}
