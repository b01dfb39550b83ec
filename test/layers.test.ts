import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { expect, test } from 'vitest';
import { repoRoot } from './helpers/run-cli.js';

// The layer rules are dependency-cruiser's (.dependency-cruiser.mjs, run by npm run layers); this proves they can fail.
interface LayerConfig {
  default: IConfiguration;
  STAGES: string[];
  BASE_FOLDERS: string[];
  BASE_FILES: string[];
}
const config = (await import(pathToFileURL(join(repoRoot, '.dependency-cruiser.mjs')).href)) as LayerConfig;
const rules = config.default.forbidden ?? [];

/** Every rule broken the way its comment forbids: test/fixtures/layers breaks each rule once (each file says which). */
async function violationsOf(root: string): Promise<{ rule: string; from: string; to: string }[]> {
  const { output } = await cruise(['src', 'specs'], { ...config.default.options, ruleSet: config.default, validate: true, baseDir: root });
  return (output as ICruiseResult).summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}

test('every folder the rules name exists, so no rule passes for want of files', () => {
  const named = [...config.STAGES, ...config.BASE_FOLDERS].map((folder) => `src/${folder}`);
  const files = config.BASE_FILES.map((file) => `src/${file}.ts`);
  expect([...named, ...files].filter((path) => !existsSync(join(repoRoot, path)))).toEqual([]);
  expect(rules.length).toBeGreaterThanOrEqual(10);
});

test('every rule fails on the import it forbids, direct or through other modules', async () => {
  const violations = await violationsOf(join(repoRoot, 'test/fixtures/layers'));
  expect(new Set(violations.map(({ rule }) => rule))).toEqual(new Set(rules.map(({ name }) => name)));
  expect(violations).toEqual(
    expect.arrayContaining([
      { rule: 'record-imports-no-later-stage', from: 'src/record/plan.ts', to: 'src/report/views.ts' },
      { rule: 'judge-never-sends', from: 'specs/auth.spec.ts', to: 'src/http/client.ts' },
      { rule: 'only-the-pipeline-starts-stages', from: 'src/cli/main.ts', to: 'src/report/write.ts' },
      { rule: 'only-the-pipeline-starts-stages', from: 'src/judge/provided.ts', to: 'src/classify/recording.ts' },
      { rule: 'only-the-pipeline-starts-stages', from: 'src/doctor/examination.ts', to: 'src/diagnosis/diagnose.ts' },
      { rule: 'doctor-builds-and-shows-only', from: 'src/doctor/examination.ts', to: 'src/pipeline/run.ts' },
      { rule: 'views-read-no-disk', from: 'src/report/matrix/html.ts', to: 'fs' },
      { rule: 'diagnosis-reads-the-one-classification', from: 'src/diagnosis/answers.ts', to: 'src/classify/classify.ts' },
    ]),
  );
});

test('every rule has a comment saying why', () => {
  expect(rules.filter(({ comment }) => !comment || comment.length < 40).map(({ name }) => name)).toEqual([]);
});
