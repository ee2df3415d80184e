/*
 * Questions brought in from a CSV (the tracker form's import, `aisc track create --query-file x.csv`):
 * `question[,tag]` a row, an optional header row, RFC 4180 quoting, a BOM and CRLF taken. Pure: the
 * form shows what `planImport` would add and skip before anything is added.
 */

export type CsvQuestion = { question: string; tag?: string };

/** Why a row was not added. */
export type SkipReason = "empty" | "duplicate" | "over-limit";

export type ImportPlan = {
  added: CsvQuestion[];
  skipped: Array<{ line: number; question: string; reason: SkipReason }>;
};

/** The header row's first cell, when the file has one ("question", "questions", "query", "prompt"). */
const HEADER = /^(questions?|quer(y|ies)|prompts?)$/i;

/**
 * The rows of a `question[,tag]` CSV, each with its line number (1-based, counting the header), its
 * question and tag trimmed (a blank tag is none). Columns after the second are ignored.
 */
export function parseQuestionCsv(text: string): Array<CsvQuestion & { line: number }> {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  const first = records[0];
  const start = first && HEADER.test((first.cells[0] ?? "").trim()) ? 1 : 0;
  return records.slice(start).map(({ line, cells }) => {
    const question = (cells[0] ?? "").replace(/\s+/g, " ").trim();
    const tag = (cells[1] ?? "").trim();
    return { line, question, ...(tag ? { tag } : {}) };
  });
}

/**
 * What importing the rows into a form holding `existing` questions would do: each new question
 * added in order (with its tag) until `max` questions are held; blank rows, repeats (of the form's
 * questions or of an earlier row, any letter case) and those past `max` skipped, each with why.
 */
export function planImport(existing: readonly string[], rows: ReadonlyArray<CsvQuestion & { line: number }>, max: number): ImportPlan {
  const seen = new Set(existing.map((question) => question.toLowerCase()));
  let held = existing.length;
  const plan: ImportPlan = { added: [], skipped: [] };
  for (const { line, question, tag } of rows) {
    const reason: SkipReason | null = !question ? "empty" : seen.has(question.toLowerCase()) ? "duplicate" : held >= max ? "over-limit" : null;
    if (reason) {
      plan.skipped.push({ line, question, reason });
      continue;
    }
    seen.add(question.toLowerCase());
    held++;
    plan.added.push(tag ? { question, tag } : { question });
  }
  return plan;
}

/** The records of a CSV with the line each starts on: commas separate cells; a quoted cell may hold commas, quotes ("") and line breaks. Blank lines are left out. */
function csvRecords(text: string): Array<{ line: number; cells: string[] }> {
  const records: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let startLine = 1;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") records.push({ line: startLine, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell.trim() === "") {
      cell = "";
      quoted = true;
    } else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      startLine = line;
    } else cell += char;
  }
  if (cell !== "" || cells.length > 0) endRecord();
  return records;
}
