import type { Requirement } from '../../requirements/types.js';
import type { RunError } from '../../errors.js';
import type * as MatrixFile from '../../validators/types/matrix.generated.js';

/**
 * One target's line of the matrix: its verdict per requirement, and where its own reports are. A matrix runs each
 * target once, so no verdict is flaky.
 */
export type MatrixTarget = MatrixFile.Target;

/**
 * matrix.json: targets by requirements. Markdown and HTML views render from it; the merge command combines shards of
 * it. Requirement IDs and error codes are typed by the code that owns them; the schema checks only their form.
 */
export type Matrix = Omit<MatrixFile.TicketingConformanceMatrix, 'requirements' | 'errors'> & {
  requirements: Pick<Requirement, 'id' | 'level' | 'family' | 'title'>[];
  errors: RunError[];
};
