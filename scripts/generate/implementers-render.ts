import { randomBytes } from 'node:crypto';
import { authorizationHeader, clientHeaders, curlCommand, type CredentialVariant } from '../../src/exchange/credentials.js';
import { variants } from '../../src/reference-server/faults.js';
import { expectedKills, expectedWarnings } from '../../src/reference-server/kills.js';
import { startReferenceServer } from '../../src/reference-server/server.js';
import { catalog, implementersAnchor } from '../../src/requirements/catalog.js';
import type { Family, Requirement } from '../../src/requirements/types.js';

export const DOCS_DIR = 'docs/implementers';
const EXAMPLE_BASE_URL = 'https://help.example.com';
const EXAMPLE_PASSWORD = 'x';
const FAMILIES: readonly Family[] = ['envelope', 'status', 'lang', 'auth', 'selfservice', 'official-client'];

const FAMILY_INTRO: Record<Family, string> = {
  envelope: 'Every successful response shown in the document is a JSON envelope of `status`, `message` and `data`.',
  status: '`GET /api/ticket/status/<status_id>` answers the ticket status and its translations, each field with its documented type.',
  lang: 'The `lang` query parameter replaces translated content (for instance `name`) and leaves everything else as it was.',
  auth: 'The API token is the Basic user name; the password is ignored; anything else fails authentication.',
  selfservice:
    'The reference call `GET /api/selfservice/type` succeeds with valid credentials and fails without them. Its body shape is not shown.',
  'official-client':
    "What the vendor's PHP client needs of an answer to work, quoted from its code; judged only with `--profile official-client` (see [the profile](../official-client.md)).",
};

interface Example {
  title: string;
  path: string;
  credentials: CredentialVariant;
  note?: string;
}

const EXAMPLES: Record<Family, Example[]> = {
  envelope: [{ title: 'A ticket status in the envelope', path: '/api/ticket/status/1', credentials: 'valid' }],
  status: [
    { title: 'A status with translations', path: '/api/ticket/status/1', credentials: 'valid' },
    { title: 'A status without translations: `translations` is still there, empty', path: '/api/ticket/status/3', credentials: 'valid' },
  ],
  lang: [{ title: 'A status asked for in French', path: '/api/ticket/status/1?lang=fr', credentials: 'valid' }],
  auth: [
    { title: 'Any password with the token', path: '/api/ticket/status/1', credentials: 'password-letter' },
    {
      title: 'A wrong token',
      path: '/api/ticket/status/1',
      credentials: 'wrong-token',
      note: 'The code and body of a refusal are not stated: 401 with this body is what production deployments answer; any answer that is not a success passes, unless the application fails on it (a fatal error, an uncaught exception, its database down): that is no authentication failing.',
    },
  ],
  'official-client': [
    {
      title:
        "A ticket status asked for as the official client asks (getStatus): password X, Content-Type: application/json, Guzzle's User-Agent, no Accept",
      path: '/api/ticket/status/1',
      credentials: 'official-client',
    },
  ],
  selfservice: [
    {
      title: 'The reference call',
      path: '/api/selfservice/type',
      credentials: 'valid',
      note: 'The body shape is not stated: this is what the reference server answers; any JSON answer that is a success passes.',
    },
  ],
};

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

async function answers(): Promise<Map<Example, Answer>> {
  const token = randomBytes(16).toString('hex');
  const server = await startReferenceServer({ token });
  try {
    const found = new Map<Example, Answer>();
    for (const example of Object.values(EXAMPLES).flat()) {
      const authorization = authorizationHeader(example.credentials, token, EXAMPLE_PASSWORD);
      const response = await fetch(`${server.url}${example.path}`, {
        headers: { ...clientHeaders(example.credentials), ...(authorization ? { authorization } : {}) },
        signal: AbortSignal.timeout(5000),
      });
      const body = JSON.stringify(await response.json(), null, 2);
      found.set(example, { status: response.status, contentType: response.headers.get('content-type') ?? '', body });
    }
    return found;
  } finally {
    await server.close();
  }
}

function curl(example: Example): string {
  return curlCommand(example.credentials, EXAMPLE_PASSWORD, `${EXAMPLE_BASE_URL}${example.path}`);
}

function mistakes(requirement: Requirement): string[] {
  const killers = variants.filter(
    (variant) => expectedKills[variant.name]?.includes(requirement.id) || expectedWarnings[variant.name]?.includes(requirement.id),
  );
  if (requirement.level === 'INFO') return ['The document leaves this open: the suite records what your server does and never fails it.'];
  if (killers.length === 0) return [];
  return [
    'Common mistakes that fail it (see each with `ticketing-conformance serve --fault NAME`):',
    '',
    ...killers.map((variant) => `- \`${variant.name}\`: ${variant.summary}`),
  ];
}

function requirementSection(requirement: Requirement): string[] {
  return [
    `### ${requirement.id} (${requirement.level})`,
    '',
    requirement.level === 'CLIENT'
      ? `Checked: ${requirement.title}. The client (${requirement.section}):`
      : `Checked: ${requirement.title}. The document (${requirement.section}):`,
    '',
    `> ${requirement.quote}`,
    '',
    ...mistakes(requirement),
    '',
  ];
}

function examplesSection(family: Family, found: Map<Example, Answer>): string[] {
  return EXAMPLES[family].flatMap((example) => {
    const answer = found.get(example);
    if (!answer) throw new Error(`no answer recorded for ${example.path}`);
    return [
      `### ${example.title}`,
      '',
      '```sh',
      curl(example),
      '```',
      '',
      example.credentials === 'wrong-token' ? 'What the reference server answers:' : "A conforming answer (the reference server's):",
      '',
      '```http',
      `HTTP ${answer.status}`,
      `Content-Type: ${answer.contentType}`,
      '',
      answer.body,
      '```',
      '',
      ...(example.note ? [example.note, ''] : []),
    ];
  });
}

const GENERATED =
  '<!-- Generated by npm run docs:implementers from the requirement catalog, the fault catalog and the reference server. Do not edit. -->';

function familyPage(family: Family, found: Map<Example, Answer>): string {
  const requirements = catalog.filter((requirement) => requirement.family === family);
  return [
    `# Making your server pass: ${family}`,
    '',
    GENERATED,
    '',
    FAMILY_INTRO[family],
    '',
    'Contract: [`schemas/openapi.json`](../../schemas/openapi.json). Reference: `ticketing-conformance serve`. Your differences from it: `ticketing-conformance --base-url YOURS --token … --compare-to REFERENCE --compare-token …`.',
    '',
    '## What is checked',
    '',
    '| ID | Level | What is checked |',
    '|---|---|---|',
    ...requirements.map(
      (requirement) =>
        `| [${requirement.id}](#${implementersAnchor(requirement.id)}) | ${requirement.level} | ${requirement.title.replaceAll('|', '\\|')} |`,
    ),
    '',
    ...requirements.flatMap(requirementSection),
    '## Example',
    '',
    `Requests are shown against ${EXAMPLE_BASE_URL}; \`<API_TOKEN>\` stands for your token.`,
    '',
    ...examplesSection(family, found),
  ].join('\n');
}

function indexPage(): string {
  const quirks = variants.filter((variant) => variant.kind === 'quirk');
  return [
    '# Making your server pass',
    '',
    GENERATED,
    '',
    "One page per requirement family: what is checked (the requirement, its level and the document's words), an example request with a conforming answer, and the common mistakes that fail each requirement.",
    '',
    ...FAMILIES.map((family) => `- [${family}](${family}.md): ${FAMILY_INTRO[family]}`),
    '',
    '## Unusual, but conformant',
    '',
    'Servers that do these pass: the document does not forbid them. See each with `ticketing-conformance serve --fault NAME`.',
    '',
    ...quirks.map((variant) => `- \`${variant.name}\`: ${variant.summary}`),
    '',
  ].join('\n');
}

/** Every page of docs/implementers/, by file name. */
export async function renderImplementerDocs(): Promise<Record<string, string>> {
  const found = await answers();
  return Object.fromEntries([['README.md', indexPage()], ...FAMILIES.map((family) => [`${family}.md`, familyPage(family, found)])]);
}
