import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, test } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { startReferenceServer } from '../src/reference-server/server.js';
import { closingLine } from '../src/report/views/failure-text.js';
import type { Matrix } from '../src/report/matrix/types.js';
import type { Report } from '../src/report/model/types.js';
import {
  headerTarget,
  MARK,
  MARKDOWN_FORGERY,
  markdownTarget,
  TERMINAL_FORGERY,
  terminalTarget,
  xmlTarget,
} from './helpers/forging-targets.js';
import type { LoopbackServer } from './helpers/loopback-server.js';
import { REPORT_KINDS } from '../src/config/reports.js';
import { fileResources } from './helpers/file-resources.js';
import { COUNTS_LINE, repoRoot, runCli, type CliRun } from './helpers/run-cli.js';

const TOKEN = 'forged-text-token-5e0c1b';
const { inProcess, cleanUpAfterAll, tempFolder } = fileResources({ reports: REPORT_KINDS });

const SEPARATORS_AND_MORE =
  '\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
/** What no terminal line may carry as it came: every control character but the line feed between lines. */
const TERMINAL_HIDDEN = new RegExp(`[\\u0000-\\u0009\\u000B-\\u001F${SEPARATORS_AND_MORE}`);
/** What no page or XML file may carry as it came: a body keeps its line breaks and tabs. */
const PAGE_HIDDEN = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F${SEPARATORS_AND_MORE}`);

async function started(server: Promise<LoopbackServer>): Promise<LoopbackServer> {
  const running = await server;
  cleanUpAfterAll(running.close);
  return running;
}

/** The terminal shows the target's text as codes: nothing moves the cursor, and the last line is the real counts line. */
function expectSafeTerminal(run: Pick<CliRun, 'stdout' | 'stderr'>, report?: Report): void {
  expect(run.stdout).not.toMatch(TERMINAL_HIDDEN);
  expect(run.stderr).not.toMatch(TERMINAL_HIDDEN);
  const lines = run.stdout.trimEnd().split('\n');
  // A counts line can only be the suite's own, the last.
  expect(lines.slice(0, -1).filter((line) => COUNTS_LINE.test(line))).toEqual([]);
  if (report) {
    expect(lines.at(-1)).toBe(closingLine(report));
    const verdicts = lines.filter((line) => line.startsWith('Verdict for '));
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toContain(report.summary);
  }
}

const md = new MarkdownIt({ html: true });
type Token = ReturnType<MarkdownIt['parse']>[number];
const flat = (tokens: Token[]): Token[] => tokens.flatMap((token) => [token, ...flat(token.children ?? [])]);
const OUR_HEADINGS =
  /^(Ticketing API conformance (report|matrix)|Known failures|Failures|Warnings: not failures, each fails the run only with --strict|Not judged \(skipped\)|Observations \(the document leaves these open\)|Requirements by target|Comparison with .*)$/;

/** Rendered as GitHub would: only the suite's headings, no image, link or HTML, no bold or emphasis made of the target's text. */
function expectSafeMarkdown(text: string): void {
  expect(text).not.toMatch(TERMINAL_HIDDEN);
  const tokens = md.parse(text, {});
  const all = flat(tokens);
  expect(
    all.filter((token) => ['image', 'link_open', 'html_block', 'html_inline'].includes(token.type)).map((token) => token.content),
  ).toEqual([]);
  const headings = tokens.flatMap((token, index) => (token.type === 'heading_open' ? [tokens[index + 1]?.content ?? ''] : []));
  expect(headings.filter((heading) => !OUR_HEADINGS.test(heading))).toEqual([]);
  const emphasised = all.flatMap((token, index) =>
    ['strong_open', 'em_open', 's_open'].includes(token.type) ? [all[index + 1]?.content ?? ''] : [],
  );
  expect(emphasised.filter((content) => content.includes(MARK))).toEqual([]);
}

async function expectValidJunit(xml: string): Promise<void> {
  expect(xml).not.toMatch(PAGE_HIDDEN);
  const xsd = await readFile(join(repoRoot, 'schemas', 'junit.xsd'), 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: xsd }] });
  expect(result.errors.map((error) => error.rawMessage)).toEqual([]);
}

/** The page carries the target's text only as text: its one script is its own, no element or link came from the target. */
function expectSafePage(html: string, script: 0 | 1): void {
  expect(html).not.toMatch(PAGE_HIDDEN);
  expect(html).toMatch(
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src ('sha256-[^']+'|'none'); img-src 'none'; base-uri 'none'; form-action 'none'">/,
  );
  expect(html.match(/<script/gi) ?? []).toHaveLength(script);
  // The target's text has no "<" left, so every tag is the suite's: none that loads, runs or sends anything.
  const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
  expect(tags.filter((tag) => /^<(img|iframe|object|embed|base|form|link)\b|\son\w+=|http-equiv="refresh"/i.test(tag))).toEqual([]);
  // Every link stays in the page or goes to a sibling file: no scheme at all.
  const links = [...html.matchAll(/\s(?:href|src|action|formaction)="([^"]*)"/gi)].map((match) => match[1] ?? '');
  expect(links.filter((link) => /^\s*[a-z][a-z0-9+.-]*:/i.test(link))).toEqual([]);
}

interface Forged {
  run: CliRun;
  report: Report;
  summary: string;
}

type Runner = (args: string[], env?: Record<string, string>) => Promise<CliRun>;

/** The command in this process, its lines those the binary prints; the file's runs share one spec runner. */
const runInProcess: Runner = async (args, env) => {
  const run = await inProcess.run(args, env);
  cleanUpAfterAll(run.cleanup);
  return run;
};

/** The real process: the bytes it writes to its own stdout and stderr. */
const realProcess: Runner = async (args, env) => {
  const run = await runCli(args, env);
  cleanUpAfterAll(run.cleanup);
  return run;
};

/** A run against the target, with the job summary it appends to the file GITHUB_STEP_SUMMARY names. */
async function runAgainst(server: { url: string }, extra: string[] = [], run = runInProcess): Promise<Forged> {
  const dir = await tempFolder('conformance-forged-');
  const summaryPath = join(dir, 'step-summary.md');
  const result = await run(['--base-url', server.url, '--token', TOKEN, '--max-requests', '40', ...extra], {
    GITHUB_STEP_SUMMARY: summaryPath,
  });
  if (!result.report) throw new Error(`no report.json; stderr: ${result.stderr}`);
  return { run: result, report: result.report, summary: await readFile(summaryPath, 'utf8') };
}

const output = (run: CliRun, name: string): Promise<string> => readFile(join(run.outDir, name), 'utf8');

describe('a target whose answers are built to forge what the suite shows', () => {
  // The terminal forgery goes through the real process too: what a terminal would get is the binary's own output.
  test.concurrent.each([
    ['terminal escapes, a carriage return and a fake verdict and totals line', terminalTarget, true, realProcess],
    ['a fence-breaking body: heading, bold verdict, image, link, raw HTML, bare CR, line separators', markdownTarget, true, runInProcess],
    ['characters XML 1.0 cannot carry: U+FFFE, U+FFFF, lone surrogates, NUL', xmlTarget, false, runInProcess],
    ['control characters in the reason phrase and the Server header', headerTarget, false, runInProcess],
  ])('%s: every output shows it as text', async (_name, serve, shown, runner) => {
    const server = await started(serve());
    const { run, report, summary } = await runAgainst(server, [], runner);
    expect(run.code).toBe(report.exitCode);
    expect(report.verdict).not.toBe('conformant');

    expectSafeTerminal(run, report);
    expectSafeMarkdown(await output(run, 'report.md'));
    expectSafeMarkdown(summary);
    await expectValidJunit(await output(run, 'junit.xml'));
    expectSafePage(await output(run, 'report.html'), 1);
    const verified = await inProcess.exec(['verify', join(run.outDir, 'report.json')]);
    expect(verified.code).toBe(0);
    expectSafeTerminal(verified);
    // The target's words are still there to read, as codes and escaped text.
    if (shown) {
      expect(run.stdout).toContain(MARK);
      expect(await output(run, 'report.md')).toContain(MARK);
      expect(await output(run, 'junit.xml')).toContain(MARK);
    }
  });

  test.concurrent('what the terminal shows is the forgery itself, each hidden character by its code', async () => {
    const server = await started(terminalTarget());
    const { run } = await runAgainst(server, ['--verbose']);
    expect(run.stdout).toContain('\\u{001b}[2J\\u{001b}[H\\u{001b}]0;FORGED window title\\u{0007}');
    expect(run.stdout).toContain('\\u{001b}]52;c;');
    expect(run.stdout).toContain(
      '\\rVerdict for http://127.0.0.1/: FORGED Conformant: every requirement passed.\\n26 passed, 0 failed, 0 skipped\\r',
    );
    expect(run.stdout).toContain('\\u{009b}2J\\u{202e}FORGED\\u{202c}\\u{0007}');
    expect(TERMINAL_FORGERY).toContain('\u001b]8;;');
  });

  test.concurrent('doctor shows a forging target as text', async () => {
    for (const serve of [terminalTarget, headerTarget, markdownTarget]) {
      const server = await started(serve());
      const run = await runInProcess(['doctor', '--base-url', server.url, '--token', TOKEN]);
      expect(run.code).not.toBe(0);
      expectSafeTerminal(run);
    }
  });

  test.concurrent('--compare-to a forging target: the difference list and the report.md section show it as text', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const server = await started(markdownTarget());
    const { run, summary } = await runAgainst(reference, ['--compare-to', server.url, '--compare-token', TOKEN]);
    expectSafeTerminal(run);
    expect(run.stdout).toContain('Compared with');
    const markdown = await output(run, 'report.md');
    expect(markdown).toContain('## Comparison with');
    expectSafeMarkdown(markdown);
    expectSafeMarkdown(summary);
    expectSafePage(await output(run, join('compare-to', 'report.html')), 1);
    await expectValidJunit(await output(run, join('compare-to', 'junit.xml')));
  });
});

describe('report files edited to forge', () => {
  test.concurrent('diff of a report whose observations were edited shows them as text', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const first = await runInProcess(['--base-url', reference.url, '--token', TOKEN]);
    const edited = structuredClone(first.report) as Report;
    const observation = edited.requirements.find((result) => result.level === 'INFO')?.checks[0];
    if (!observation) throw new Error('the run made no observation');
    observation.actual = TERMINAL_FORGERY + MARKDOWN_FORGERY;
    const path = join(first.outDir, 'edited.json');
    await writeFile(path, JSON.stringify(edited));
    const run = await inProcess.exec(['diff', join(first.outDir, 'report.json'), path]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`now: ${observation.description}: \\u{001b}[2J`);
    expectSafeTerminal(run);
  });

  test.concurrent('judge of a recording edited to forge, and history of a folder whose names forge, show them as text', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const first = await runInProcess(['--base-url', reference.url, '--token', TOKEN]);
    const recording = JSON.parse(await output(first, 'recording.json')) as { suite: { version: string } };
    recording.suite.version = TERMINAL_FORGERY;
    const edited = join(first.outDir, 'edited-recording.json');
    await writeFile(edited, JSON.stringify(recording));
    for (const quiet of [[], ['--quiet']]) {
      const judged = await inProcess.exec(['judge', edited, '--out', join(first.outDir, 'judged'), ...quiet]);
      expect(judged.code).toBe(0);
      expectSafeTerminal(judged);
    }

    const runs = join(first.outDir, 'runs');
    await mkdir(join(runs, `night\u001b]0;${MARK}\u0007`), { recursive: true });
    await writeFile(join(runs, `night\u001b]0;${MARK}\u0007`, 'report.json'), '{ "not": "a report"');
    await mkdir(join(runs, 'good'));
    await writeFile(join(runs, 'good', 'report.json'), await output(first, 'report.json'));
    const history = await inProcess.exec(['history', runs, '--out', join(first.outDir, 'history')]);
    expect(history.code).toBe(0);
    expect(history.stderr).toContain('\\u{001b}]0;');
    expectSafeTerminal(history);
  });

  test.concurrent('merge of a shard matrix.json edited to carry javascript: and data: links and Markdown', async () => {
    const reference = await startReferenceServer({ token: TOKEN });
    cleanUpAfterAll(reference.close);
    const dir = await tempFolder('conformance-forged-merge-');
    await writeFile(
      join(dir, 'targets.json'),
      JSON.stringify({ targets: [{ name: 'one', baseUrl: reference.url, tokenEnv: 'FORGED_TOKEN' }] }),
    );
    const shard = await runInProcess(['--targets', join(dir, 'targets.json'), '--shard', '1/1'], { FORGED_TOKEN: TOKEN });
    const matrix = JSON.parse(await output(shard, 'matrix.json')) as Matrix;
    const [target] = matrix.targets;
    if (!target) throw new Error('the shard has no target');
    target.reportDir = 'javascript:alert(document.domain)//';
    target.summary = MARKDOWN_FORGERY;
    target.exitCode = 1;
    matrix.summary = `${TERMINAL_FORGERY} data:text/html,<script>alert(1)</script>`;
    await writeFile(join(dir, 'matrix.json'), JSON.stringify(matrix));

    const merged = join(dir, 'merged');
    const run = await inProcess.exec(['merge', join(dir, 'matrix.json'), '--out', merged]);
    expectSafeTerminal(run);
    const page = await readFile(join(merged, 'matrix.html'), 'utf8');
    expectSafePage(page, 1);
    // The edited folder name is a path segment: its colon is encoded, so it names a folder, not a scheme.
    expect(page.match(/href="[^"]*"/g)).toEqual(['href="../javascript%3Aalert(document.domain)/report.md"']);
    const markdown = await readFile(join(merged, 'matrix.md'), 'utf8');
    expectSafeMarkdown(markdown.replace(/\[[^\]]*\]\(\.\.\/javascript%3A[^)]*\)/, 'link'));
    expect(markdown).toContain('[../javascript:alert(document.domain)](../javascript%3Aalert%28document.domain%29/report.md)');
    expect(
      flat(md.parse(markdown, {}))
        .filter((token) => token.type === 'link_open')
        .map((token) => token.attrGet('href')),
    ).toEqual(['../javascript%3Aalert%28document.domain%29/report.md']);
  });
});
