import { markup, type Html } from './escape/html.js';
import type { Diagnosis, DiagnosisId } from '../../diagnosis/types.js';

/** The stations a request passes on its way to the API, in order. */
const HOPS = ['client', 'proxy', 'web-server', 'php-handler', 'application'] as const;
type Hop = (typeof HOPS)[number];

const HOP_LABEL: Record<Hop, [string, string]> = {
  client: ['Client', '(this suite)'],
  proxy: ['Proxy / CDN', '(if any)'],
  'web-server': ['Web server', '(Apache, nginx)'],
  'php-handler': ['PHP handler', '(FPM, CGI)'],
  application: ['Application', '(the API)'],
};

/** Where each cause puts the request's stop. */
const STOPS: Partial<Record<DiagnosisId, Hop>> = {
  'target-not-reachable': 'client',
  'api-redirects': 'proxy',
  'unrecognised-answer': 'proxy',
  'api-path-serves-html': 'web-server',
  'api-not-found': 'web-server',
  'front-controller-not-routed': 'web-server',
  'rewrite-not-applied': 'web-server',
  'web-server-error': 'php-handler',
  'web-server-forbidden': 'web-server',
  'web-server-password': 'web-server',
  'authorization-header-stripped': 'php-handler',
  'server-error': 'application',
  'answers-not-json': 'application',
  'token-refused': 'application',
  'authentication-not-enforced': 'application',
  'application-failed': 'application',
  'catch-all-route': 'web-server',
  'api-path-answers-empty': 'web-server',
  'php-fpm-script-not-found': 'php-handler',
  'php-fpm-access-denied': 'php-handler',
  'php-cgi-no-input-file': 'php-handler',
  'php-not-running': 'php-handler',
  'front-no-route': 'proxy',
  'token-read-from-wrong-place': 'application',
  'php-display-errors': 'php-handler',
};

/** Where a diagnosis puts the stop; a cause without a place of its own is placed by whose fault it is. */
function pathStop(diagnosis: Diagnosis): Hop {
  const known = STOPS[diagnosis.id];
  if (known) return known;
  if (diagnosis.party === 'target') return 'application';
  if (diagnosis.party === 'suite') return 'client';
  return 'web-server';
}

/**
 * The mark on the stopped station, as sure as the diagnosis: the picture must never claim more than the words
 * beside it, which may name two explanations at medium confidence.
 */
export const STOP_MARK: Record<Diagnosis['confidence'], { mark: string; stopped: string }> = {
  high: { mark: 'Stopped here (high confidence)', stopped: 'it stopped at' },
  medium: { mark: 'Most likely here (medium confidence)', stopped: 'it most likely stopped at' },
  low: { mark: 'Perhaps here (low confidence)', stopped: 'it may have stopped at' },
};

/** How sure the diagnosis is and whose fault it is, in the words the text beside the picture uses. */
export function confidenceLine(diagnosis: Diagnosis): string {
  return `Most likely ${diagnosis.party}; ${diagnosis.confidence} confidence.`;
}

/**
 * The path of a request (client → proxy/CDN → web server → PHP handler → application) drawn as boxes of text, with
 * the station where it stopped marked: stations before it were passed, stations after it never heard of the request
 * (or, when only a header was lost, heard of it without that header). Its caption is the diagnosis itself, so the
 * picture says what the text says. Boxes and captions are page text: they wrap on a narrow screen instead of being
 * cut off, and the stations stack when the row no longer fits.
 */
export function requestPath(diagnosis: Diagnosis, listId: string): Html {
  const stop = pathStop(diagnosis);
  const at = HOPS.indexOf(stop);
  const { mark, stopped } = STOP_MARK[diagnosis.confidence];
  const hops = HOPS.map((hop, index) => {
    const state = index < at ? 'passed' : index === at ? 'stopped' : 'unreached';
    const [name, detail] = HOP_LABEL[hop];
    const link =
      index === 0 ? undefined : markup`<span class="link link-${index <= at ? 'passed' : 'unreached'}" aria-hidden="true"></span>`;
    const stopMark =
      state === 'stopped' ? markup`<span class="stop-mark"><span class="stop-x" aria-hidden="true">✕</span> ${mark}</span>` : undefined;
    return markup`<li class="hop hop-${state}"${state === 'stopped' ? markup` aria-current="step"` : undefined}>${link}<span class="hop-box"><span class="hop-name">${name}</span> <span class="hop-detail">${detail}</span></span>${stopMark}</li>`;
  });
  const [name] = HOP_LABEL[stop];
  const description = `The request went client, proxy or CDN, web server, PHP handler, application; ${stopped} the ${name.toLowerCase()} (${diagnosis.confidence} confidence).`;
  return markup`<figure class="path">
<figcaption><strong class="cause">${diagnosis.summary}</strong><span class="source">${confidenceLine(diagnosis)}</span></figcaption>
<ol class="request-path" aria-label="${description}" id="${listId}">${hops}</ol>
</figure>`;
}
