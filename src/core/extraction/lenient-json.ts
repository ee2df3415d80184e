/**
 * Reads one JSON value that starts at `start` in `text` and reports where it ends, so the caller
 * can pick a JSON object out of prose without a regex (the text after it is never looked at).
 *
 * strict: plain JSON. lenient (the default) also accepts what models write by hand: single or
 * typographic quotes, unescaped quotes inside strings, trailing or missing commas, unquoted keys,
 * comments, and True/False/None. Returns null when no value can be read there.
 */
export function readJsonValue(text: string, start: number, mode: "strict" | "lenient" = "lenient"): { value: unknown; end: number } | null {
  const reader = new Reader(text, mode === "lenient");
  try {
    reader.pos = start;
    const value = reader.value(0);
    return { value, end: reader.pos };
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

// Which characters close a string opened by each quote. Typographic quotes are paired loosely
// because models mix “…” and "…" freely.
const CLOSERS: Record<string, string> = {
  '"': '"”',
  "'": "'’",
  "“": '”“"',
  "”": '”"',
  "‘": "’‘'",
  "’": "’'",
};
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null, True: true, False: false, None: null, undefined: null };
const MAX_DEPTH = 100;
// Made once: a regex literal in a method is a new object on every call, and the reader calls them per character.
const SPACE = /\s/;
const NUMBER_START = /[-+\d.]/;
const WORD = /^[A-Za-z_$][\w$]*/;
const STRICT_LITERAL = /^(true|false|null)$/;
const KEY_WORD = /^[A-Za-z_$][\w$-]*/;
const LENIENT_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/;
const STRICT_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/;
const AFTER_STRING = /\s*(.)/sy;
const CAN_FOLLOW_STRING = /[,:}\]"'“”‘’]/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const PLAIN_ESCAPE = /["\\/]/;

class Reader {
  pos = 0;
  private readonly text: string;
  private readonly lenient: boolean;

  constructor(text: string, lenient: boolean) {
    this.text = text;
    this.lenient = lenient;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail();
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === "{") return this.object(depth);
    if (ch === "[") return this.array(depth);
    if (ch !== undefined && this.isQuote(ch)) return this.string();
    if (ch !== undefined && NUMBER_START.test(ch)) return this.number();
    const word = WORD.exec(this.text.slice(this.pos, this.pos + 16))?.[0];
    if (word !== undefined && Object.hasOwn(LITERALS, word) && (this.lenient || STRICT_LITERAL.test(word))) {
      this.pos += word.length;
      return LITERALS[word];
    }
    return this.fail();
  }

  private object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.pos++; // {
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return result;
      }
      const key = this.key();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail();
      this.pos++;
      // defineProperty: a "__proto__" key from model output must stay a plain key.
      Object.defineProperty(result, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.separator("}");
    }
  }

  private array(depth: number): unknown[] {
    const result: unknown[] = [];
    this.pos++; // [
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return result;
      }
      result.push(this.value(depth + 1));
      this.separator("]");
    }
  }

  // After a member: a comma (several, or one before the closer, when lenient), the closer, or —
  // lenient only — nothing at all before the next member.
  private separator(closer: string): void {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === ",") {
      this.pos++;
      if (!this.lenient) {
        this.skipSpace();
        if (this.text[this.pos] === closer) this.fail();
        return;
      }
      while ((this.skipSpace(), this.text[this.pos] === ",")) this.pos++;
      return;
    }
    if (ch === closer) return;
    if (!this.lenient || ch === undefined || ch === "}" || ch === "]") this.fail();
  }

  private key(): string {
    const ch = this.text[this.pos];
    if (ch !== undefined && this.isQuote(ch)) return this.string();
    if (!this.lenient) return this.fail();
    const word = KEY_WORD.exec(this.text.slice(this.pos, this.pos + 64))?.[0];
    if (word === undefined) return this.fail();
    this.pos += word.length;
    return word;
  }

  private string(): string {
    const open = this.text[this.pos] ?? "";
    const closers = this.lenient ? (CLOSERS[open] ?? open) : '"';
    // The string is copied in runs between escapes, not a character at a time.
    let out = "";
    this.pos++;
    let run = this.pos;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) return this.fail();
      if (ch === "\\") {
        out += this.text.slice(run, this.pos);
        out += this.escape();
        run = this.pos;
        continue;
      }
      this.pos++;
      if (closers.includes(ch) && (!this.lenient || this.endsString())) return out + this.text.slice(run, this.pos - 1);
      if (!this.lenient && ch < " ") this.fail();
    }
  }

  // A quote only closes a hand-written string when what follows could follow a string; otherwise
  // it is an apostrophe ("Nike's") or an unescaped inner quote ("the "best" one").
  private endsString(): boolean {
    AFTER_STRING.lastIndex = this.pos;
    const rest = AFTER_STRING.exec(this.text);
    return rest === null || CAN_FOLLOW_STRING.test(rest[1] ?? "");
  }

  private escape(): string {
    const ch = this.text[this.pos + 1];
    if (ch === undefined) return this.fail();
    this.pos += 2;
    if (ch === "u") {
      const hex = this.text.slice(this.pos, this.pos + 4);
      if (!HEX4.test(hex)) return this.fail();
      this.pos += 4;
      return String.fromCharCode(parseInt(hex, 16));
    }
    if (PLAIN_ESCAPE.test(ch)) return ch;
    if (!this.lenient) return this.fail();
    return ESCAPES[ch] ?? ch;
  }

  private number(): number {
    const match = (this.lenient ? LENIENT_NUMBER : STRICT_NUMBER).exec(this.text.slice(this.pos, this.pos + 64))?.[0];
    if (match === undefined) return this.fail();
    this.pos += match.length;
    return Number(match);
  }

  private skipSpace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      const ch = this.text[this.pos];
      // ASCII spaces without a regex; others (no-break space, line separator…) by \s.
      if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && SPACE.test(ch ?? ""))) {
        this.pos++;
      } else if (this.lenient && ch === "/" && this.text[this.pos + 1] === "/") {
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.text.length : end;
      } else if (this.lenient && ch === "/" && this.text[this.pos + 1] === "*") {
        const end = this.text.indexOf("*/", this.pos + 2);
        if (end === -1) this.fail();
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  private isQuote(ch: string): boolean {
    return ch === '"' || (this.lenient && Object.hasOwn(CLOSERS, ch));
  }

  private fail(): never {
    throw new SyntaxError(`Unexpected input at ${this.pos}`);
  }
}
