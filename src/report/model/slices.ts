import type { RecordedCheck } from '../../judge/scenario-result.js';
import type { Report, RequirementResult, Verdict } from './types.js';
import { requirementVerdict } from './verdicts.js';

/** The statuses and languages of a run that asked for several, as report.json's options list them. */
export interface RunSlices {
  statusIds: number[];
  langs: string[];
}

export function runSlices(options: Pick<Report['options'], 'statusIds' | 'langs'>): RunSlices {
  return { statusIds: options.statusIds ?? [], langs: options.langs ?? [] };
}

const sameLang = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * A requirement's verdict for each status and each language it was judged per, folded from the checks made for it as
 * the requirement's own verdict is from all of them: worst wins, so the requirement fails where any of them fails.
 */
export function sliceVerdicts(
  result: Pick<RequirementResult, 'level' | 'checks'>,
  slices: RunSlices,
): Pick<RequirementResult, 'byStatus' | 'byLanguage'> {
  const verdictOf = (checks: RecordedCheck[]): Verdict => requirementVerdict(result, checks);
  const byStatus = slices.statusIds.flatMap((statusId) => {
    const checks = result.checks.filter((check) => check.statusId === statusId);
    return checks.length > 0 ? [{ statusId, verdict: verdictOf(checks) }] : [];
  });
  const byLanguage = slices.langs.flatMap((lang) => {
    const checks = result.checks.filter((check) => sameLang(check.lang, lang));
    return checks.length > 0 ? [{ lang, verdict: verdictOf(checks) }] : [];
  });
  return { ...(byStatus.length > 0 ? { byStatus } : {}), ...(byLanguage.length > 0 ? { byLanguage } : {}) };
}

/** Which statuses and languages a requirement was judged for, as a test's name says it: "status 1, 2, 5; lang fr, de". */
export function judgedSlicesLabel(result: Pick<RequirementResult, 'byStatus' | 'byLanguage'>): string | undefined {
  const parts = [
    result.byStatus ? `status ${result.byStatus.map((entry) => entry.statusId).join(', ')}` : '',
    result.byLanguage ? `lang ${result.byLanguage.map((entry) => entry.lang).join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** One status or language of the run with what its requirements came to: each verdict counted, the failed ones named. */
export interface SliceSummary {
  label: string;
  counts: Partial<Record<Verdict, number>>;
  failed: string[];
}

/** Per status, then per language: how the requirements judged for it fared. Empty for a run of one status and one language. */
export function sliceSummaries(report: Pick<Report, 'requirements' | 'options'>): SliceSummary[] {
  const { statusIds, langs } = runSlices(report.options);
  const summary = (label: string, verdicts: { id: string; verdict: Verdict }[]): SliceSummary => {
    const counts: Partial<Record<Verdict, number>> = {};
    for (const { verdict } of verdicts) counts[verdict] = (counts[verdict] ?? 0) + 1;
    const failed = verdicts.filter(({ verdict }) => verdict === 'fail' || verdict === 'warn' || verdict === 'error').map(({ id }) => id);
    return { label, counts, failed };
  };
  return [
    ...statusIds.map((statusId) =>
      summary(
        `status ${statusId}`,
        report.requirements.flatMap(
          (result) =>
            result.byStatus?.filter((entry) => entry.statusId === statusId).map(({ verdict }) => ({ id: result.id, verdict })) ?? [],
        ),
      ),
    ),
    ...langs.map((lang) =>
      summary(
        `lang ${lang}`,
        report.requirements.flatMap(
          (result) => result.byLanguage?.filter((entry) => entry.lang === lang).map(({ verdict }) => ({ id: result.id, verdict })) ?? [],
        ),
      ),
    ),
  ];
}

/** A summary in one line: "status 5: 20 pass, 2 fail (STATUS-NAME, STATUS-ID)". */
export function sliceSummaryLine({ label, counts, failed }: SliceSummary): string {
  const parts = Object.entries(counts).map(([verdict, count]) => `${count} ${verdict}`);
  return `${label}: ${parts.join(', ') || 'nothing judged'}${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`;
}

/** The requirements judged per status or per language, a row each, with a column per status and per language. */
export interface SliceGrid {
  columns: string[];
  rows: { id: string; cells: (Verdict | undefined)[] }[];
}

export function sliceGrid(report: Pick<Report, 'requirements' | 'options'>): SliceGrid {
  const { statusIds, langs } = runSlices(report.options);
  const rows = report.requirements
    .filter((result) => result.byStatus || result.byLanguage)
    .map((result) => ({
      id: result.id,
      cells: [
        ...statusIds.map((statusId) => result.byStatus?.find((entry) => entry.statusId === statusId)?.verdict),
        ...langs.map((lang) => result.byLanguage?.find((entry) => entry.lang === lang)?.verdict),
      ],
    }));
  return { columns: [...statusIds.map((statusId) => `status ${statusId}`), ...langs.map((lang) => `lang ${lang}`)], rows };
}
