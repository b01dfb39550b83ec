import { markup, type Html } from './escape/html.js';
import type { Diagnosis, DiagnosisId } from '../../diagnosis/types.js';

/** The stations a request passes on its way to the API, in order. */
export const HOPS = ['client', 'proxy', 'web-server', 'php-handler', 'application'] as const;
export type Hop = (typeof HOPS)[number];

const HOP_LABEL: Record<Hop, [string, string]> = {
  client: ['Client', '(this suite)'],
  proxy: ['Proxy / CDN', '(if any)'],
  'web-server': ['Web server', '(Apache, nginx)'],
  'php-handler': ['PHP handler', '(FPM, CGI)'],
  application: ['Application', '(the API)'],
};

/** Where the request stopped or went wrong, and what happened there, in a few words. */
export interface PathStop {
  hop: Hop;
  what: string;
}

const STOPS: Partial<Record<DiagnosisId, PathStop>> = {
  'target-not-reachable': { hop: 'client', what: 'no answer came back' },
  'api-redirects': { hop: 'proxy', what: 'a redirect answered instead of the API' },
  'unrecognised-answer': { hop: 'proxy', what: 'an answer no known hosting problem explains' },
  'api-path-serves-html': { hop: 'web-server', what: 'an HTML page answered, not the API' },
  'api-not-found': { hop: 'web-server', what: 'no application at this address' },
  'front-controller-not-routed': { hop: 'web-server', what: '/api/ not handed to index.php' },
  'rewrite-not-applied': { hop: 'web-server', what: '.htaccess rewrite rules not applied' },
  'web-server-error': { hop: 'php-handler', what: 'the web server could not run PHP' },
  'authorization-header-stripped': { hop: 'php-handler', what: 'Authorization header dropped' },
  'server-error': { hop: 'application', what: 'the application failed (HTTP 5xx)' },
  'answers-not-json': { hop: 'application', what: 'an answer that is not JSON' },
  'token-refused': { hop: 'application', what: 'the token was refused' },
  'authentication-not-enforced': { hop: 'application', what: 'answered without valid credentials' },
  'application-failed': { hop: 'application', what: 'the application failed' },
  'catch-all-route': { hop: 'web-server', what: 'a catch-all route took /api/' },
  'api-path-answers-empty': { hop: 'web-server', what: 'an empty answer, not the API' },
  'php-fpm-script-not-found': { hop: 'php-handler', what: 'PHP-FPM found no script' },
  'token-read-from-wrong-place': { hop: 'application', what: 'the token read from the wrong place' },
  'php-display-errors': { hop: 'php-handler', what: 'PHP printed messages into the answer' },
};

/** Where a diagnosis puts the stop; a cause without a place of its own is placed by whose fault it is. */
export function pathStop(diagnosis: Diagnosis): PathStop {
  const known = STOPS[diagnosis.id];
  if (known) return known;
  if (diagnosis.party === 'target') return { hop: 'application', what: 'the application' };
  if (diagnosis.party === 'suite') return { hop: 'client', what: 'the suite itself' };
  return { hop: 'web-server', what: 'something in front of the application' };
}

const BOX_WIDTH = 112;
const GAP = 24;
const TOP = 8;
const BOX_HEIGHT = 52;

/**
 * The path of a request (client → proxy/CDN → web server → PHP handler → application) as inline SVG, with the station
 * where it stopped marked: stations before it were passed, stations after it never heard of the request (or, when
 * only a header was lost, heard of it without that header).
 */
export function requestPathSvg(diagnosis: Diagnosis, titleId: string): Html {
  const stop = pathStop(diagnosis);
  const at = HOPS.indexOf(stop.hop);
  const width = HOPS.length * BOX_WIDTH + (HOPS.length - 1) * GAP + 2;
  const parts: Html[] = [];
  HOPS.forEach((hop, index) => {
    const x = 1 + index * (BOX_WIDTH + GAP);
    const state = index < at ? 'passed' : index === at ? 'stopped' : 'unreached';
    const [name, detail] = HOP_LABEL[hop];
    parts.push(
      markup`<g class="hop hop-${state}"><rect x="${x}" y="${TOP}" width="${BOX_WIDTH}" height="${BOX_HEIGHT}" rx="6"/><text x="${x + BOX_WIDTH / 2}" y="${TOP + 22}" text-anchor="middle">${name}</text><text class="hop-detail" x="${x + BOX_WIDTH / 2}" y="${TOP + 40}" text-anchor="middle">${detail}</text></g>`,
    );
    if (index < HOPS.length - 1) {
      const from = x + BOX_WIDTH;
      const y = TOP + BOX_HEIGHT / 2;
      parts.push(
        markup`<path class="link link-${index < at ? 'passed' : 'unreached'}" d="M${from + 2} ${y} H${from + GAP - 6} M${from + GAP - 11} ${y - 5} L${from + GAP - 5} ${y} L${from + GAP - 11} ${y + 5}"/>`,
      );
    }
  });
  const centre = 1 + at * (BOX_WIDTH + GAP) + BOX_WIDTH / 2;
  const markY = TOP + BOX_HEIGHT + 18;
  parts.push(
    markup`<g class="stop-mark"><circle cx="${centre}" cy="${markY}" r="9"/><path d="M${centre - 4} ${markY - 4} L${centre + 4} ${markY + 4} M${centre + 4} ${markY - 4} L${centre - 4} ${markY + 4}"/></g>`,
    markup`<text class="stop-text" x="${Math.min(Math.max(centre, 120), width - 120)}" y="${markY + 26}" text-anchor="middle">${`Stopped here: ${stop.what}`}</text>`,
  );
  const [name] = HOP_LABEL[stop.hop];
  const sentence = `The request went client, proxy or CDN, web server, PHP handler, application; it stopped at the ${name.toLowerCase()}: ${stop.what}.`;
  return markup`<svg class="request-path" role="img" aria-labelledby="${titleId}" viewBox="0 0 ${width} ${markY + 36}" xmlns="http://www.w3.org/2000/svg"><title id="${titleId}">${sentence}</title>${parts}</svg>`;
}
