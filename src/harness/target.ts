import type { CredentialVariant } from './credentials.js';
import type { Exchange } from './exchange.js';
import { HttpClient, type TrafficCounts } from './http-client.js';
import type { TargetSettings } from './settings.js';
import { translationsOf, type Translation } from '../assertions/status.js';

export const FIRST_STATUS_ID = 1;
/** An id no installation reaches, to see how the target answers for a status that does not exist. */
export const UNKNOWN_STATUS_ID = 2147483646;
/** Real two-letter codes, tried in order, for a locale the status has no translation for. */
const MISSING_LOCALE_CANDIDATES = ['sw', 'is', 'mt', 'cy', 'eu', 'ga', 'lb', 'mk'];

export interface StatusRequest {
  id?: number;
  lang?: string;
  credentials?: CredentialVariant;
}

/** The target as specs see it: named requests, each sent at most once per run and shared by every scenario. */
export class Target {
  private readonly client: HttpClient;
  private readonly memo = new Map<string, Promise<Exchange>>();

  constructor(readonly settings: TargetSettings) {
    this.client = new HttpClient(settings);
  }

  get traffic(): TrafficCounts {
    return this.client.traffic;
  }

  get tlsCertificates(): string[] {
    return this.client.tlsCertificates;
  }

  status({ id = this.settings.statusId, lang, credentials = 'valid' }: StatusRequest = {}): Promise<Exchange> {
    return this.once(`/api/ticket/status/${id}`, lang === undefined ? {} : { lang }, credentials);
  }

  selfservice(credentials: CredentialVariant = 'valid'): Promise<Exchange> {
    return this.once('/api/selfservice/type', {}, credentials);
  }

  /** The locale to ask for: the configured one, or the first translation the status lists. */
  async translatedLocale(): Promise<Translation | undefined> {
    const translations = translationsOf(await this.status()) ?? [];
    const wanted = this.settings.lang?.toLowerCase();
    return translations.find((entry) =>
      wanted === undefined
        ? typeof entry.locale === 'string' && typeof entry.name === 'string'
        : String(entry.locale).toLowerCase() === wanted,
    );
  }

  /** A locale with no translation: the configured one, or a real code absent from the status' translations. */
  async missingLocale(): Promise<string> {
    if (this.settings.missingLang) return this.settings.missingLang;
    const present = new Set((translationsOf(await this.status()) ?? []).map((entry) => String(entry.locale).toLowerCase()));
    return MISSING_LOCALE_CANDIDATES.find((code) => !present.has(code)) ?? 'zz';
  }

  private once(path: string, query: Record<string, string>, credentials: CredentialVariant): Promise<Exchange> {
    const key = `${credentials} ${path}?${new URLSearchParams(query).toString()}`;
    let pending = this.memo.get(key);
    if (!pending) {
      pending = this.client.get({ path, query, credentials });
      // Scenarios await these later; an early rejection must not count as unhandled meanwhile.
      pending.catch(() => undefined);
      this.memo.set(key, pending);
    }
    return pending;
  }
}
