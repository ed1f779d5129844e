// The statement every import format is read into: one account, its balances and its movements.
// Amounts are exact decimal strings, negative for money out ("-12.50"); dates are YYYY-MM-DD.

export const STATEMENT_FORMATS = ["norma43", "camt053", "ofx", "csv"] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface Balance {
  date: string;
  /** Signed exact decimal: negative when the account is overdrawn. */
  amount: string;
}

export interface Movement {
  /** Stable hash of account + booking date + amount + description + reference (+ the ordinal of an
   * identical movement on the same day), 16 hex digits: what duplicate detection compares. */
  id: string;
  bookingDate: string;
  valueDate?: string;
  /** Signed exact decimal: negative = money out. */
  amount: string;
  description: string;
  reference?: string;
  /** The file line the movement starts on (1-based). */
  line: number;
}

export interface Statement {
  format: StatementFormat;
  /** The account as the file names it (IBAN, CCC or account number). */
  account: string;
  /** The same for display, with all but the first and last four characters hidden. */
  accountMasked: string;
  /** Bank name or code when the file gives one. */
  institution?: string;
  currency: string;
  /** Balance before the first movement (the start of the period). */
  opening?: Balance;
  /** Balance after the last movement (the end of the period). */
  closing?: Balance;
  movements: Movement[];
}

/** A refusal: a message key under "statementImport.errors", its parameters, and the file line (1-based; 0
 * when it concerns the whole file). */
export interface ParseError {
  line: number;
  key: string;
  params: Record<string, string | number>;
}

/** Told how far a parse is, from 0 to 1 (every few thousand lines). */
export type Progress = (fraction: number) => void;

export type ParseResult = { ok: true; statements: Statement[] } | { ok: false; error: ParseError };

/** Thrown inside a parser, turned into `{ ok: false }` at its edge: nothing partial is returned. */
export class StatementError extends Error {
  constructor(
    readonly line: number,
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${key} at line ${line}`);
  }
}

export function guarded(parse: () => Statement[]): ParseResult {
  try {
    return { ok: true, statements: parse() };
  } catch (e) {
    if (e instanceof StatementError) return { ok: false, error: { line: e.line, key: e.key, params: { ...e.params, line: e.line } } };
    throw e;
  }
}
