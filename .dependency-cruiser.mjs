// The layer rules of src/ and specs/: data flows config -> record -> classify -> judge -> diagnose -> report, and nothing
// imports upward. `npm run layers` checks them (part of npm run checks); test/layers.test.ts proves each rule can fail.

/** Every stage and the programs built on them, in the order data flows through them. */
export const STAGES = ['http', 'record', 'classify', 'judge', 'diagnosis', 'report', 'doctor', 'pipeline', 'exporter', 'cli'];

/**
 * The base every stage may read, importing no stage: the vocabulary (one exchange and the credential names, secrets, the
 * catalog, the compiled schemas, errors and warnings, hashes, paths, the version), then the settings table and the
 * checked files, which read the vocabulary.
 */
export const VOCABULARY_FOLDERS = ['exchange', 'secrets', 'requirements', 'validators'];
export const SETTINGS_FOLDERS = ['config', 'files'];
export const BASE_FOLDERS = [...VOCABULARY_FOLDERS, ...SETTINGS_FOLDERS];
export const BASE_FILES = ['errors', 'hash', 'paths', 'version'];

const folders = (...names) => `^src/(${names.join('|')})/`;

/** What sends a request: the HTTP client, and the modules that drive it. */
const SENDS = ['^src/http/', '^src/record/recorder[.]ts$'];

/** What runs the specs: the judge's queue, its thread and the engine in it. */
const JUDGE_ENGINE = '^src/judge/(spec-runner|spec-engine|judge-queue|lasting-thread|judging-thread)[.]';

/** The entry point of each stage (record, classify, judge, diagnose, build, write); only the pipeline wires them together. */
const STAGE_STARTERS = [
  '^src/record/recorder[.]ts$',
  '^src/classify/recording[.]ts$',
  '^src/judge/spec-runner[.]ts$',
  '^src/judge/judge-queue[.]ts$',
  '^src/diagnosis/diagnose[.]ts$',
  '^src/report/model/build[.]ts$',
  '^src/report/write[.]ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'base-imports-no-stage',
      comment:
        'The base every stage shares (the vocabulary, the settings table, the checked files) must load without any ' +
        'stage, so each stage can use it and a stage can be read on its own.',
      severity: 'error',
      from: { path: [folders(...BASE_FOLDERS), `^src/(${BASE_FILES.join('|')})[.]ts$`] },
      to: { path: folders(...STAGES), reachable: true },
    },
    {
      name: 'vocabulary-imports-no-settings',
      comment:
        'The vocabulary (the exchange, the credential names, secrets, errors and warnings) sits under the settings table, ' +
        'which reads it: a default the two share belongs to the vocabulary, so neither loads the other in a circle.',
      severity: 'error',
      from: { path: [folders(...VOCABULARY_FOLDERS), `^src/(${BASE_FILES.join('|')})[.]ts$`] },
      to: { path: folders(...SETTINGS_FOLDERS), reachable: true },
    },
    {
      name: 'http-imports-no-later-stage',
      comment: 'The GET-only client is the first stage: what it sends must not depend on what later stages make of the answers.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: folders(...STAGES.filter((stage) => stage !== 'http')), reachable: true },
    },
    {
      name: 'record-imports-no-later-stage',
      comment:
        'A recording is made before anything is judged, so it holds what was sent and answered, never a judgement; ' +
        '`judge recording.json` relies on it.',
      severity: 'error',
      from: { path: '^src/record/' },
      to: { path: folders('classify', 'judge', 'diagnosis', 'report', 'pipeline', 'doctor', 'exporter', 'cli'), reachable: true },
    },
    {
      name: 'classify-reads-recordings-only',
      comment:
        'Classifying is a pure reading of recorded answers: it sends nothing and knows no verdict, so every later stage ' +
        'reads the same classification.',
      severity: 'error',
      from: { path: '^src/classify/' },
      to: { path: folders('http', 'judge', 'diagnosis', 'report', 'pipeline', 'doctor', 'exporter', 'cli'), reachable: true },
    },
    {
      name: 'judge-never-sends',
      comment: 'The judge and the specs judge a recording, also offline: nothing they load may send a request.',
      severity: 'error',
      from: { path: ['^src/judge/', '^specs/'] },
      to: { path: SENDS, reachable: true },
    },
    {
      name: 'diagnosis-reads-judged-results-only',
      comment:
        'The diagnosis reads classifications and judged checks and returns causes before the report is built; ' +
        'it neither runs the judge nor knows how results are shown or written.',
      severity: 'error',
      from: { path: '^src/diagnosis/' },
      to: {
        path: [JUDGE_ENGINE, folders('report', 'pipeline', 'doctor', 'exporter', 'cli')],
        reachable: true,
      },
    },
    {
      name: 'diagnosis-reads-the-one-classification',
      comment:
        'Every diagnosis, and the doctor that shows them, reads the classification the classify stage made once and handed ' +
        'in with each answer: they may use its types and the signatures it names, never classify an answer again, so no ' +
        'cause can read an answer otherwise than the checks did.',
      severity: 'error',
      from: { path: ['^src/diagnosis/', '^src/doctor/'] },
      to: { path: '^src/classify/(classify|recording)[.]ts$', reachable: true },
    },
    {
      name: 'report-renders-results-only',
      comment: 'The report is built from judged results and rendered: it sends nothing and runs nothing, so views stay pure.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: folders('http', 'pipeline', 'cli', 'exporter', 'doctor'), reachable: true },
    },
    {
      name: 'views-read-no-disk',
      comment:
        'A view shows what it is given: what it shows from the disk (a folder of past runs, a page a target wrote) is read ' +
        'by its caller and passed in, so a view renders the same for the same input and its writer alone touches files.',
      severity: 'error',
      from: { path: '^src/report/', pathNot: ['^src/report/write[.]ts$', '^src/report/model/read[.]ts$'] },
      to: { path: ['^(node:)?fs(/promises)?$', '^src/files/'] },
    },
    {
      name: 'only-the-judge-imports-vitest',
      comment: 'Recording, reporting and the CLI work without Vitest; only the judge runs inside it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/judge/' },
      to: { path: '(^|/)node_modules/(vitest|@vitest)/' },
    },
    {
      name: 'src-imports-no-scripts-or-tests',
      comment: 'scripts/ and test/ are not in the package: what it ships must not need them.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/', reachable: true },
    },
    {
      name: 'only-the-pipeline-starts-stages',
      comment:
        'One pipeline wires record, classify, judge, diagnose, build and write together for every caller (run, repeat, ' +
        'matrix, judge FILE, compare, exporter, doctor): a second wiring would drift from it.',
      severity: 'error',
      // A stage may use its own entry point (the judge queue runs the spec runner, the report's parts settle its outcome).
      from: { path: '^src/([^/]+)', pathNot: '^src/pipeline/' },
      to: { path: STAGE_STARTERS, pathNot: '^src/$1/' },
    },
    {
      name: 'doctor-builds-and-shows-only',
      comment:
        "The doctor's folder builds its examination from a diagnosed pass and shows it; the pipeline records, classifies " +
        'and diagnoses for it, as for a run, so it neither sends nor judges.',
      severity: 'error',
      from: { path: '^src/doctor/' },
      to: { path: [...SENDS, JUDGE_ENGINE, folders('pipeline', 'exporter', 'cli')], reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from a later stage ties a module to it as much as a value does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages are resolved as Node resolves them for ESM, through their "exports".
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'node', 'default'] },
    exclude: { path: '^dist/' },
  },
};
