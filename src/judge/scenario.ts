import { pathToFileURL } from 'node:url';
import { getCurrentSuite, test, type TestContext } from '@vitest/runner';
import { askedLang, type CheckOutcome } from './checks/outcome.js';
import { HarnessError } from '../errors.js';
import { requirement, type RequirementId, type requirements } from '../requirements/catalog.js';
import {
  currentClassification,
  currentTarget,
  specRunHasTestPerScenario,
  specRunIsStrict,
  targetSlots,
  type TargetSlot,
} from './context.js';
import type { Classification, Classified, Reach } from '../classify/types.js';
import { webServerRefusal, whyNotJudged } from './unjudged.js';
import { apiPathOf } from '../classify/classify.js';
import { servedOnPath } from '../classify/reach.js';
import type { Exchange } from '../exchange/exchange.js';
import { judgedExchange, type JudgedExchange, type RecordedCheck, type ScenarioResult } from './scenario-result.js';
import { severalSlices, slicesOf, type Slice, type SliceScope, type Target } from '../record/target.js';
import { STRICT_LEVELS, type Profile } from '../requirements/types.js';
import type { CredentialVariant } from '../exchange/credentials.js';

class SkipSignal extends Error {
  constructor(
    reason: string,
    readonly exchange?: Exchange,
  ) {
    super(reason);
  }
}

/**
 * One function for each requirement a scenario lists, under its ID: `check['AUTH-TOKEN-ACCEPTED'](outcome, exchange)`.
 * The ID is a key rather than an argument because an editor follows a key to its declaration: "go to definition" on
 * the ID opens its entry in the catalog. A key the scenario does not list is not there, so naming it fails to compile.
 */
type ForEachListed<R extends RequirementId, F> = { readonly [Id in keyof Pick<typeof requirements, R>]: F };

/**
 * What a scenario's run is handed. R holds the requirements it may judge: a helper that takes a
 * ScenarioContext<'ENV-JSON'> can only be given the context of a scenario that lists ENV-JSON.
 */
export interface ScenarioContext<R extends RequirementId = never> {
  target: Target;
  /** Who answered an exchange and what the answer means, as the classification stage decided. */
  answer(exchange: Exchange): Classified;
  /** What the run shows as a whole: whether the API answered here, and which credential forms were served. */
  reach: Reach;
  /** Records one check of a requirement; the exchange supplies the request and the curl repro. */
  check: ForEachListed<R, (result: CheckOutcome, exchange?: Exchange) => boolean>;
  /** Records what the target did where the document leaves it open. */
  observe: ForEachListed<R, (description: string, actual: string, exchange?: Exchange) => void>;
  /** Ends the scenario unjudged; the exchange that shows why is kept with the skip. */
  skip(reason: string, exchange?: Exchange): never;
}

export interface ScenarioDefinition<R extends RequirementId> {
  id: string;
  requirements: readonly R[];
  title: string;
  /** The profile the scenario belongs to: it is judged only for a target whose run was given it (--profile). */
  profile?: Profile;
  /**
   * Judged once for the run (the default), once for each status of --status-id, or once for each status and each
   * language of --lang: what the scenario judges belongs to one status, or to one status in one language.
   */
  per?: SliceScope;
  run(context: ScenarioContext<R>): Promise<void>;
}

const NOTHING_REACHED: Reach = { apiAnswered: false, servedStatusTo: {}, servedListingTo: [] };

/** The classification of an exchange the scenario judges; every recorded answer has one. */
function classifiedIn(classification: Classification | undefined, exchange: Exchange, scenarioId: string): Classified {
  const classified = exchange.key === undefined ? undefined : classification?.answers[exchange.key];
  if (!classified) throw new Error(`scenario ${scenarioId} judged an exchange that was not classified`);
  return classified;
}

function formatFailure(check: RecordedCheck, exchanges: Record<string, JudgedExchange>): string {
  const lines = [`${check.requirement}: ${check.description}`, `  Expected: ${check.expected ?? ''}`, `  Actual:   ${check.actual ?? ''}`];
  const exchange = check.exchange === undefined ? undefined : exchanges[check.exchange];
  if (exchange) lines.push(`  Request:  ${exchange.request.method} ${exchange.request.url}`, `  Repro:    ${exchange.repro}`);
  return lines.join('\n');
}

/** How a test and a check name the slice they judged: "status 5", "status 5, lang de". */
function sliceLabel({ statusId, lang }: Slice): string {
  return lang === undefined ? `status ${statusId}` : `status ${statusId}, lang ${lang}`;
}

/**
 * Declares a scenario of a spec file: a test of Vitest's for each target of the spec run, and for each status (and
 * language) when it is judged so and the run asks for several; a batch of several targets names each test after its
 * target, and each slice after its status. A spec run that asks for a test per scenario gets one that judges them all.
 */
export function scenario<const R extends RequirementId>(definition: ScenarioDefinition<R>): void {
  // A spec in plain JavaScript gets no compiler: an ID the catalog lacks still stops it here.
  for (const id of definition.requirements) requirement(id);
  loadingFile?.push(definition as ScenarioDefinition<RequirementId>);
  registerTests(definition);
}

/** The scenarios of each spec file the judging thread has loaded, by path, or why the file cannot be judged. */
const scenariosOfFile = new Map<string, ScenarioDefinition<RequirementId>[] | Error>();
/** Where scenario() notes the scenarios of the spec file being loaded. */
let loadingFile: ScenarioDefinition<RequirementId>[] | undefined;
/** Tests registered by scenarios so far, to tell them from any a spec file declared itself. */
let testsRegistered = 0;

/**
 * Registers a spec file's tests for the spec run being collected. The file is imported once: its scenarios register
 * themselves as it loads, and are registered again from what was noted then for every later run, since a module
 * imported again is not run again (and a fresh copy of it each run would stay in memory for the thread's lifetime).
 */
export async function registerSpecFile(path: string): Promise<void> {
  const known = scenariosOfFile.get(path);
  if (known instanceof Error) throw known;
  if (known) {
    for (const definition of known) registerTests(definition);
    return;
  }
  const noted: ScenarioDefinition<RequirementId>[] = [];
  loadingFile = noted;
  const [tasksBefore, testsBefore] = [getCurrentSuite().tasks.length, testsRegistered];
  try {
    await import(pathToFileURL(path).href);
  } finally {
    loadingFile = undefined;
  }
  // A test declared beside the scenarios would be registered by the import alone, so only in the first run: the file
  // is refused in every run instead.
  if (getCurrentSuite().tasks.length - tasksBefore !== testsRegistered - testsBefore) {
    const refused = new Error(`spec ${path} declares tests or suites of its own: a spec file declares scenarios only (scenario({...}))`);
    scenariosOfFile.set(path, refused);
    throw refused;
  }
  scenariosOfFile.set(path, noted);
}

/**
 * One target a scenario's test judges, in one slice when the scenario is judged per slice and the run asks for
 * several; named as its own test would be, which names it among the failures of a test that judges several.
 */
interface Judgement {
  slot: TargetSlot;
  slice: Slice | undefined;
  name: string;
}

/** What the scenario judges of one target: each of its slices, or the target as a whole. */
function judgementsOf(definition: ScenarioDefinition<RequirementId>, name: string, slot: TargetSlot): Judgement[] {
  const scope = definition.per ?? 'run';
  const several = scope !== 'run' && severalSlices(slot.choices);
  const targetName = slot.label === undefined ? name : `${slot.label} › ${name}`;
  if (!several) return [{ slot, slice: undefined, name: targetName }];
  const prefix = slot.label === undefined ? '' : `${slot.label} › `;
  return slicesOf(slot.choices, scope).map((slice) => ({ slot, slice, name: `${prefix}${sliceLabel(slice)} › ${name}` }));
}

/**
 * The scenario's tests in the spec run being collected: one per target and slice, or, when the run asks for a test per
 * scenario, one for every recorded target and slice.
 */
function registerTests<const R extends RequirementId>(definition: ScenarioDefinition<R>): void {
  // The requirement IDs are in the name for `vitest -t ID` and are tags for `vitest --tags-filter ID`.
  const name = `${definition.id}: ${definition.title} (${definition.requirements.join(', ')})`;
  const register = (testName: string, judgements: Judgement[]): void => {
    test(testName, { tags: [...definition.requirements] }, (vitestContext) => judge(definition, judgements, vitestContext));
    testsRegistered += 1;
  };
  // Registered all the same, recording nothing: to Vitest a spec file without a single test is an error.
  const registerUnjudged = (testName: string): void => {
    test.skip(`${testName} (judged only with --profile ${definition.profile})`, () => undefined);
    testsRegistered += 1;
  };
  const slots = targetSlots();
  const judged = (slot: TargetSlot): boolean => definition.profile === undefined || slot.profile === definition.profile;
  if (specRunHasTestPerScenario()) {
    const judgements = slots.filter(judged).flatMap((slot) => judgementsOf(definition, name, slot));
    const recorded = judgements.filter(({ slot }) => slot.recorded);
    if (recorded.length > 0) register(name, recorded);
    // A target that was not recorded fails a test of its own, which says why.
    for (const judgement of judgements) if (!judgement.slot.recorded) register(judgement.name, [judgement]);
    if (judgements.length === 0 && slots.length > 0) registerUnjudged(name);
    return;
  }
  for (const slot of slots) {
    if (!judged(slot)) registerUnjudged(slot.label === undefined ? name : `${slot.label} › ${name}`);
    else for (const judgement of judgementsOf(definition, name, slot)) register(judgement.name, [judgement]);
  }
}

/**
 * What a scenario's check and observe fall back on for a key they do not hold: a spec in plain JavaScript that reaches
 * for an ID the scenario does not list is told which, rather than finding undefined where a function should be. One for
 * each scenario, made once, for the prototype of the functions of every judgement of it.
 */
const unlistedOf = new WeakMap<ScenarioDefinition<RequirementId>, object>();

function unlisted(definition: ScenarioDefinition<RequirementId>): object {
  let refusing = unlistedOf.get(definition);
  if (!refusing) {
    refusing = new Proxy(
      {},
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && !(key in Object.prototype)) {
            throw new Error(`scenario ${definition.id} checks ${key} but does not list it in requirements`);
          }
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    unlistedOf.set(definition, refusing);
  }
  return refusing;
}

/** The functions of ForEachListed, one per listed requirement, before the scenario's refusal of any other. */
function forEachListed<R extends RequirementId, F>(definition: ScenarioDefinition<R>, make: (id: R) => F): ForEachListed<R, F> {
  const functions: Record<string, F> = {};
  for (const id of definition.requirements) functions[id] = make(id);
  // Set once the functions are in: each is then its own property, which no assignment looks for on the prototype.
  return Object.setPrototypeOf(functions, unlisted(definition as ScenarioDefinition<RequirementId>)) as ForEachListed<R, F>;
}

/**
 * What a check of a slice is marked with: its status, and its language when it judged an answer to one of --lang's
 * (the slice's own, for a scenario judged per language).
 */
function sliceMark(
  slice: Slice | undefined,
  scope: SliceScope,
  langs: readonly string[] | undefined,
  exchange: Exchange | undefined,
): Pick<RecordedCheck, 'statusId' | 'lang'> {
  if (!slice) return {};
  const asked = exchange && askedLang(exchange);
  const listed = asked ? langs?.find((code) => code.toLowerCase() === asked.toLowerCase()) : undefined;
  const lang = scope === 'language' ? slice.lang : listed;
  return lang === undefined ? { statusId: slice.statusId } : { statusId: slice.statusId, lang };
}

/**
 * What every scenario judging a target reads of its answers, by exchange key, made once: each exchange as the report
 * keeps it (each answer of a target is one object, classified once, and the scenarios hand back the same copy of it,
 * which crosses to the main thread once), and the credential forms its path was served to in the run. Found by the
 * target of the spec run, once for each scenario rather than for each check.
 */
interface TargetAnswers {
  judged: Map<string, JudgedExchange>;
  /** By path rather than by key: every answer on one path was served alike. */
  servedOnPath: Map<string, readonly CredentialVariant[]>;
}

const answersOfTarget = new WeakMap<Target, TargetAnswers>();

function targetAnswers(target: Target): TargetAnswers {
  let answers = answersOfTarget.get(target);
  if (!answers) {
    answers = { judged: new Map(), servedOnPath: new Map() };
    answersOfTarget.set(target, answers);
  }
  return answers;
}

/** Ends a scenario unjudged; the exchange that shows why is kept with the skip. */
function skip(reason: string, exchange?: Exchange): never {
  throw new SkipSignal(reason, exchange);
}

/** Why a scenario ended unjudged, and the exchange that shows it. */
interface Skipped {
  reason: string;
  exchange?: Exchange;
}

/** One scenario judged for one target (and slice): the checks it records, and the exchanges they name, each kept once. */
class ScenarioJudging<R extends RequirementId> {
  readonly checks: RecordedCheck[] = [];
  readonly exchanges: Record<string, JudgedExchange> = {};
  readonly reach: Reach;
  private readonly scope: SliceScope;

  constructor(
    readonly definition: ScenarioDefinition<R>,
    readonly target: Target,
    private readonly slice: Slice | undefined,
    private readonly classification: Classification | undefined,
    private readonly answers: TargetAnswers,
  ) {
    this.reach = classification?.reach ?? NOTHING_REACHED;
    this.scope = definition.per ?? 'run';
  }

  answer(exchange: Exchange): Classified {
    return classifiedIn(this.classification, exchange, this.definition.id);
  }

  /** The key a check names its exchange by, the exchange kept once for the report. */
  private named(exchange: Exchange): string {
    if (exchange.key === undefined) throw new Error(`scenario ${this.definition.id} judged an exchange that no Target answered`);
    let judged = this.answers.judged.get(exchange.key);
    if (!judged) {
      judged = judgedExchange(exchange, this.classification?.answers[exchange.key]);
      this.answers.judged.set(exchange.key, judged);
    }
    this.exchanges[exchange.key] ??= judged;
    return exchange.key;
  }

  /**
   * Records a check, naming the exchange it judged, kept for the report. A check of a slice says which status and
   * language it was made for, in its words as in its fields.
   */
  record(entry: Omit<RecordedCheck, 'scenario' | 'exchange'>, exchange?: Exchange): void {
    this.keep({ scenario: this.definition.id, ...entry }, exchange);
  }

  private keep(check: RecordedCheck, exchange: Exchange | undefined): void {
    if (exchange) check.exchange = this.named(exchange);
    if (this.slice) {
      const mark = sliceMark(this.slice, this.scope, this.target.settings.lang, exchange);
      check.description = `${sliceLabel({ ...mark, statusId: this.slice.statusId })}: ${check.description}`;
      Object.assign(check, mark);
    }
    this.checks.push(check);
  }

  /** The credential forms an answer's path was served to in the run, read once per path. */
  private servedOnPathOf(exchange: Exchange): readonly CredentialVariant[] {
    const { path } = exchange.request;
    let served = this.answers.servedOnPath.get(path);
    if (!served) {
      served = servedOnPath(this.reach, apiPathOf(path));
      this.answers.servedOnPath.set(path, served);
    }
    return served;
  }

  /** Records a check, judged only on an answer the API gave: what a front answered is not the API's pass or failure. */
  check(requirementId: R, result: CheckOutcome, exchange?: Exchange): boolean {
    const served = exchange ? this.servedOnPathOf(exchange) : [];
    const notJudged = exchange && whyNotJudged(this.answer(exchange), exchange.response.status, this.reach, result, served);
    if (notJudged) {
      this.recordNotJudged(requirementId, result, notJudged, exchange);
      return false;
    }
    // The web server's own refusal page stands for the deployment's refusal, and the check says so.
    const refusedBy = exchange && webServerRefusal(this.answer(exchange), exchange.response.status, result, served);
    this.keep(
      {
        scenario: this.definition.id,
        requirement: requirementId,
        verdict: result.ok ? 'pass' : 'fail',
        description: result.description,
        expected: result.expected,
        actual: refusedBy ? `${result.actual}; ${refusedBy}` : result.actual,
      },
      exchange,
    );
    return result.ok;
  }

  /** A SHOULD or INFO left unjudged does not take the run's verdict away; a MUST does. */
  private recordNotJudged(
    requirementId: R,
    result: CheckOutcome,
    notJudged: NonNullable<RecordedCheck['error']>,
    exchange: Exchange,
  ): void {
    const must = requirement(requirementId).level === 'MUST';
    this.record(
      {
        requirement: requirementId,
        verdict: must ? 'error' : 'skip',
        description: `${result.description}: ${notJudged.message}`,
        expected: result.expected,
        actual: result.actual,
        error: notJudged,
      },
      exchange,
    );
  }

  /** What the scenario's run is handed: its target, the classification, and the checks of its own requirements. */
  context(): ScenarioContext<R> {
    const { definition } = this;
    return {
      target: this.target,
      answer: (exchange) => this.answer(exchange),
      reach: this.reach,
      check: forEachListed(
        definition,
        (requirementId) => (result: CheckOutcome, exchange?: Exchange) => this.check(requirementId, result, exchange),
      ),
      observe: forEachListed(definition, (requirementId) => (description: string, actual: string, exchange?: Exchange) => {
        this.record({ requirement: requirementId, verdict: 'info', description, actual }, exchange);
      }),
      skip,
    };
  }

  /** A scenario that crashed: every requirement it lists is in error, with the cause. */
  recordCrash(error: unknown): void {
    const harnessError =
      error instanceof HarnessError
        ? error
        : new HarnessError(
            'HARNESS_INTERNAL',
            `scenario ${this.definition.id} crashed: ${error instanceof Error ? error.message : String(error)}`,
            'This is a bug in the suite; please report it with the report.json',
            'suite',
          );
    for (const id of this.definition.requirements) {
      this.record({
        requirement: id,
        verdict: 'error',
        description: harnessError.message,
        error: { code: harnessError.code, message: harnessError.message, hint: harnessError.hint, party: harnessError.party },
      });
    }
  }

  /** Each listed requirement without a check is skipped: for the scenario's reason, or as judged by its other checks. */
  recordUnchecked(skipped: Skipped | undefined): void {
    for (const id of this.definition.requirements) {
      if (this.checks.some((check) => check.requirement === id)) continue;
      this.record(
        { requirement: id, verdict: 'skip', description: skipped?.reason ?? 'not judged in this scenario: see its other checks' },
        skipped?.exchange,
      );
    }
  }

  result(targetIndex: number): ScenarioResult {
    const { definition, target } = this;
    const { sent, rateLimited, waitedMs } = target.traffic;
    return {
      id: definition.id,
      title: definition.title,
      requirements: [...definition.requirements],
      checks: this.checks,
      exchanges: this.exchanges,
      requestsSent: sent,
      rateLimited,
      waitedMs,
      tlsCertificates: target.tlsCertificates,
      targetIndex,
    };
  }
}

/** Runs the scenario; a skip ends it with its reason, a crash is recorded against every requirement it lists. */
async function runScenario<R extends RequirementId>(judging: ScenarioJudging<R>): Promise<Skipped | undefined> {
  try {
    await judging.definition.run(judging.context());
  } catch (error) {
    if (error instanceof SkipSignal) return { reason: error.message, ...(error.exchange ? { exchange: error.exchange } : {}) };
    judging.recordCrash(error);
  }
  return undefined;
}

/** What a test found of one target (and slice) it judged, to settle its state on. */
interface JudgedInTest {
  name: string;
  checks: RecordedCheck[];
  exchanges: Record<string, JudgedExchange>;
  skippedBecause: string | undefined;
}

async function judge<R extends RequirementId>(
  definition: ScenarioDefinition<R>,
  judgements: readonly Judgement[],
  vitestContext: TestContext,
): Promise<void> {
  const results: ScenarioResult[] = [];
  const judged: JudgedInTest[] = [];
  for (const { slot, slice, name } of judgements) {
    const whole = await currentTarget(slot.index);
    const target = slice ? whole.forSlice(slice) : whole;
    const judging = new ScenarioJudging(definition, target, slice, currentClassification(slot.index), targetAnswers(whole));
    const skipped = await runScenario(judging);
    judging.recordUnchecked(skipped);
    results.push(judging.result(slot.index));
    judged.push({ name, checks: judging.checks, exchanges: judging.exchanges, skippedBecause: skipped?.reason });
  }
  vitestContext.task.meta.conformance = results;
  settleTest(vitestContext, judged);
}

/**
 * The test's own state says what the gate says (under plain Vitest it is all the user reads): an error or a broken
 * MUST fails it, so does a broken SHOULD or CLIENT under --strict; without it, one is a warning and the test is
 * skipped with it, as junit.xml and Allure have a warning; a broken INFO is an observation. A test of several targets
 * or slices is skipped only when each of them was, and names the one each failure is about.
 */
function settleTest(vitestContext: TestContext, judged: readonly JudgedInTest[]): void {
  const strict = specRunIsStrict();
  const several = judged.length > 1;
  const failing: { of: JudgedInTest; check: RecordedCheck }[] = [];
  const warnings: { of: JudgedInTest; check: RecordedCheck }[] = [];
  for (const of of judged) {
    for (const check of of.checks) {
      if (check.verdict === 'error' || (check.verdict === 'fail' && failsTest(check, strict))) failing.push({ of, check });
      if (check.verdict === 'fail' && !strict && STRICT_LEVELS.has(requirement(check.requirement).level)) warnings.push({ of, check });
    }
  }
  const described = ({ of, check }: { of: JudgedInTest; check: RecordedCheck }): string => {
    const text =
      check.verdict === 'error' ? `${check.requirement}: ${check.error?.code} ${check.description}` : formatFailure(check, of.exchanges);
    return several ? `${of.name}\n${text}` : text;
  };
  if (failing.length > 0) {
    const failure = new Error([...failing, ...warnings].map(described).join('\n\n'));
    if (failing.every(({ check }) => check.verdict === 'fail')) failure.name = 'AssertionError';
    throw failure;
  }
  if (warnings.length > 0) {
    vitestContext.skip(`warning, a failure only with --strict (CONFORMANCE_STRICT=1): ${warnings.map(described).join('\n\n')}`);
  }
  if (judged.every(({ skippedBecause }) => skippedBecause !== undefined)) {
    vitestContext.skip(judged.map(({ name, skippedBecause }) => (several ? `${name}: ${skippedBecause}` : skippedBecause)).join('\n'));
  }
}

function failsTest(check: RecordedCheck, strict: boolean): boolean {
  const { level } = requirement(check.requirement);
  return level === 'MUST' || (strict && STRICT_LEVELS.has(level));
}
